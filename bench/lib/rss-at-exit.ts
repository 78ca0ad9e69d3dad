/**
 * Preloaded into a command the bench times (`node --import …/rss-at-exit.js dist/src/cli/main.js …`):
 * at its exit, the process's maximum RSS in kilobytes is written to the file `BENCH_RSS_FILE` names.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
}
