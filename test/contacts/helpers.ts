import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Contact,
  type LoadCounts,
  type LoadWarning,
  type LoaderOptions,
  type Reject,
  loadContacts,
} from '../../src/contacts/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/contacts/', import.meta.url));

/** A fixture's path as a user would type it from the repository root (messages quote it as given). */
export function fixture(name: string): string {
  return path.relative(process.cwd(), path.join(FIXTURES, name));
}

export interface Loaded {
  contacts: Contact[];
  rejects: Reject[];
  warnings: LoadWarning[];
  counts: LoadCounts;
}

/** Loads everything, split by kind. */
export async function load(files: string[], options: LoaderOptions = {}): Promise<Loaded> {
  const { items, counts } = loadContacts(files, options);
  const loaded: Loaded = { contacts: [], rejects: [], warnings: [], counts };
  for await (const item of items) {
    if (item.kind === 'contact') loaded.contacts.push(item.contact);
    else if (item.kind === 'reject') loaded.rejects.push(item.reject);
    else loaded.warnings.push(item);
  }
  return loaded;
}

/** The InputError (or other error) the load throws, or fails the test. */
export async function loadError(files: string[], options: LoaderOptions = {}): Promise<Error & { userError?: boolean; line?: number }> {
  try {
    await load(files, options);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the load to fail');
}

/** A temp folder for files written by a test. */
export async function tempDir(): Promise<{ dir: string; write(name: string, data: string | Uint8Array): Promise<string>; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-contacts-'));
  return {
    dir,
    async write(name, data) {
      const file = path.join(dir, name);
      await writeFile(file, data);
      return file;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A reject as reason + line (+ detail when asked), for compact assertions. */
export function brief(r: Reject): { line: number; reason: string } {
  return { line: r.line, reason: r.reason };
}
