/**
 * The window store, `<stateDir>/window.json`: the last inbound message time per client id and per
 * phone, and which phone each client id has. The planner's 24-hour window (A23) reads it by phone.
 *
 * Format (times ISO, so a person can read it):
 *   {"v":1,"clients":{"<client id>":"<iso>"},"phones":{"<e164>":"<iso>"},"links":{"<client id>":"<e164>"}}
 *
 * Written whole and atomically (temp file, fsync, rename, fsync of the folder). Every value only
 * grows (times keep the latest), so a flush first merges what another process wrote meanwhile:
 * the receiver and `sync` can share the file. A lost race can only make a window look older,
 * which sends a template instead of free text: the safe side.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './fsync-dir.js';
import { storeWriteError } from './state-file-error.js';
import type { WindowLookup, WindowStore } from '../windows.js';
import { coalescedWrite } from '../coalesced-write.js';

/** The file backend's window store: the port's, and the file it lives in. */
export interface FileWindowStore extends WindowStore {
  readonly file: string;
}

interface WindowFile {
  v: 1;
  clients: Record<string, string>;
  phones: Record<string, string>;
  links: Record<string, string>;
}

interface State {
  clients: Map<string, number>;
  phones: Map<string, number>;
  links: Map<string, string>;
}

export async function openWindowStore(file: string): Promise<FileWindowStore> {
  const state: State = { clients: new Map(), phones: new Map(), links: new Map() };
  merge(state, await readWindowFile(file));
  let dirty = false;

  function setLatest(map: Map<string, number>, key: string, at: number): void {
    const old = map.get(key);
    if (old === undefined || at > old) {
      map.set(key, at);
      dirty = true;
    }
  }

  async function write(): Promise<void> {
    if (!dirty) return;
    dirty = false;
    try {
      merge(state, await readWindowFile(file));
      await writeFileAtomic(file, JSON.stringify(toFile(state)) + '\n');
    } catch (err) {
      dirty = true;
      throw storeWriteError(err, file, 'the window store');
    }
  }

  const store: FileWindowStore = {
    file,
    noteInbound({ clientId, phone, at }) {
      if (!Number.isFinite(at)) return;
      setLatest(state.clients, clientId, at);
      const known = phone ?? state.links.get(clientId);
      if (phone !== undefined && state.links.get(clientId) !== phone) {
        state.links.set(clientId, phone);
        dirty = true;
      }
      if (known !== undefined) setLatest(state.phones, known, at);
    },
    linkPhone(clientId, phone) {
      if (state.links.get(clientId) !== phone) {
        state.links.set(clientId, phone);
        dirty = true;
      }
      const at = state.clients.get(clientId);
      if (at !== undefined) setLatest(state.phones, phone, at);
    },
    phoneOf: (clientId) => state.links.get(clientId),
    lastInboundByPhone: (phone) => state.phones.get(phone),
    lastInboundAt: (phone) => state.phones.get(phone),
    lastInboundByClient: (clientId) => state.clients.get(clientId),
    flush: coalescedWrite(write),
  };
  return store;
}

/** The store read once, for a run that only looks windows up. A missing file knows no window. */
export async function loadWindow(file: string): Promise<WindowLookup> {
  const state: State = { clients: new Map(), phones: new Map(), links: new Map() };
  merge(state, await readWindowFile(file));
  return { lastInboundAt: (phone) => state.phones.get(phone) };
}

function merge(state: State, from: WindowFile | undefined): void {
  if (!from) return;
  for (const [key, iso] of Object.entries(from.clients)) mergeTime(state.clients, key, iso);
  for (const [key, iso] of Object.entries(from.phones)) mergeTime(state.phones, key, iso);
  for (const [clientId, phone] of Object.entries(from.links)) {
    if (!state.links.has(clientId) && typeof phone === 'string') state.links.set(clientId, phone);
  }
}

function mergeTime(map: Map<string, number>, key: string, iso: unknown): void {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(at)) return;
  const old = map.get(key);
  if (old === undefined || at > old) map.set(key, at);
}

function toFile(state: State): WindowFile {
  const iso = (map: Map<string, number>) =>
    Object.fromEntries([...map].map(([key, at]) => [key, new Date(at).toISOString()]));
  return { v: 1, clients: iso(state.clients), phones: iso(state.phones), links: Object.fromEntries(state.links) };
}

async function readWindowFile(file: string): Promise<WindowFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new WindowFileError(
      `${file}: not valid JSON; delete it (the next \`outreach webhook\` or \`outreach sync\` rebuilds it from events.jsonl)`,
    );
  }
  const v = value as Partial<WindowFile> | null;
  const isMap = (m: unknown): m is Record<string, string> => typeof m === 'object' && m !== null && !Array.isArray(m);
  if (!v || v.v !== 1 || !isMap(v.clients) || !isMap(v.phones) || !isMap(v.links)) {
    throw new WindowFileError(
      `${file}: not a window store of this version; delete it (the next \`outreach webhook\` or \`outreach sync\` rebuilds it from events.jsonl)`,
    );
  }
  return v as WindowFile;
}

/** A window file a person must fix (printed without a stack trace). */
export class WindowFileError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'WindowFileError';
  }
}

/**
 * Replaces `file` with `text` so that a crash leaves the old or the new content, never a mix:
 * temp file in the same folder, fsync, rename, fsync of the folder.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'w');
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dir);
}
