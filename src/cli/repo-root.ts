import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of outreach's own package.json, found upwards from this file (works from src/ and dist/). */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'outreach') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the outreach package folder');
    dir = up;
  }
}
