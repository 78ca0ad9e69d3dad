import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir, writePrivateFile } from '../files/private.js';
import { CliError } from './exit.js';

/** A file that marks a folder as the demo's own, so it may be emptied at the next demo. */
const MARKER = '.outreach-demo';

/** The demo's folder, emptied first; a folder that is not the demo's own is never emptied. */
export async function freshDemoFolder(dir: string): Promise<string> {
  if (existsSync(dir)) {
    if (!existsSync(path.join(dir, MARKER))) {
      throw new CliError(`${dir} exists and is not a demo folder; pass --state-dir with a new or demo folder`);
    }
    await rm(dir, { recursive: true, force: true });
  }
  await makePrivateDir(dir);
  await writePrivateFile(path.join(dir, MARKER), 'made by `outreach demo`; emptied at the next demo\n');
  return dir;
}
