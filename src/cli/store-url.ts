import { readFileSync } from 'node:fs';
import { maskUrl } from '../checkpoint/backend-url.js';
import { CliError } from './exit.js';
import { stamped } from './stamp.js';

/**
 * A database store's URL as the user hands it over other than as the flag's text: read from a file
 * (`--store-file`, `OUTREACH_STORE_FILE`: a systemd credential, a mounted Kubernetes secret), and the
 * warning, once, for a password given on the command line. `store-root.ts` chooses among them.
 */

/** The store URL a file holds (one line; surrounding white space and the final newline dropped). */
export function urlInFile(file: string, from: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError(`${from} ${file}: cannot read it (${code}); give the path of a file holding the store's URL, postgres://user:password@host:5432/database`);
  }
  const url = text.trim();
  if (url === '') throw new CliError(`${from} ${file}: the file is empty; put the store's URL in it, postgres://user:password@host:5432/database`);
  if (/[\r\n]/.test(url)) throw new CliError(`${from} ${file}: the file holds more than one line; put the store's URL alone in it`);
  return url;
}

let warnedOfPassword = false;

/** Once per process: a password given on the command line can be read by every user of the machine (ps, /proc) and stays in the shell's history. */
export function warnOfPassword(url: string): void {
  if (warnedOfPassword || !hasPassword(url)) return;
  warnedOfPassword = true;
  process.stderr.write(`${stamped("outreach: warning: --store holds a password, which other users of this machine can read (ps, /proc) and the shell's history keeps; put the URL in a file only you can read and give it with --store-file or OUTREACH_STORE_FILE, or the password in PGPASSFILE or PGPASSWORD", process.stderr.isTTY)}\n`);
}

/** Whether a store URL carries a password: after the user name's `:`, or a `password=` parameter. */
function hasPassword(url: string): boolean {
  return maskUrl(url) !== url;
}
