/**
 * The window store, `<stateDir>/window.json`: the last inbound message time per client id and per
 * phone, and which phone each client id has. The planner's 24-hour window (A23) reads it by phone.
 *
 * Format (times ISO, so a person can read it):
 *   {"v":1,"clients":{"<client id>":"<iso>"},"phones":{"<e164>":"<iso>"},"links":{"<client id>":"<e164>"},
 *    "client_channels":{"<client id>":<channel id>},"phone_channels":{"<e164>":<channel id>}}
 * The two `*_channels` maps name the number of the business each last inbound message came to, when
 * known (its window is that number's); a file without them is read as knowing none.
 *
 * Written whole and atomically (temp file, fsync, rename, fsync of the folder). Every value only
 * grows (times keep the latest), so a flush first merges what another process wrote meanwhile:
 * the receiver and `sync` can share the file. A lost race can only make a window look older,
 * which sends a template instead of free text: the safe side.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir, openPrivate } from '../../files/private.js';
import { fsyncDir } from './fsync-dir.js';
import { storeWriteError } from './state-file-error.js';
import { laterInbound, type InboundMark, type WindowLookup, type WindowStore } from '../windows.js';
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
  /** The number (channel id) a client's last inbound message came to, when known (absent in files of earlier versions). */
  client_channels?: Record<string, number>;
  /** The number a phone's last inbound message came to, when known. */
  phone_channels?: Record<string, number>;
}

interface State {
  clients: Map<string, InboundMark>;
  phones: Map<string, InboundMark>;
  links: Map<string, string>;
}

const emptyState = (): State => ({ clients: new Map(), phones: new Map(), links: new Map() });

export async function openWindowStore(file: string): Promise<FileWindowStore> {
  const state = emptyState();
  merge(state, await readWindowFile(file));
  let dirty = false;

  function setLatest(map: Map<string, InboundMark>, key: string, mark: InboundMark): void {
    const old = map.get(key);
    const kept = laterInbound(old, mark);
    if (kept !== old) {
      map.set(key, kept);
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
    noteInbound({ clientId, phone, at, channelId }) {
      if (!Number.isFinite(at)) return;
      const mark = { at, ...(channelId !== undefined && { channel: channelId }) };
      setLatest(state.clients, clientId, mark);
      const known = phone ?? state.links.get(clientId);
      if (phone !== undefined && state.links.get(clientId) !== phone) {
        state.links.set(clientId, phone);
        dirty = true;
      }
      if (known !== undefined) setLatest(state.phones, known, mark);
    },
    linkPhone(clientId, phone) {
      if (state.links.get(clientId) !== phone) {
        state.links.set(clientId, phone);
        dirty = true;
      }
      const mark = state.clients.get(clientId);
      if (mark !== undefined) setLatest(state.phones, phone, mark);
    },
    phoneOf: (clientId) => state.links.get(clientId),
    lastInboundByPhone: (phone) => state.phones.get(phone)?.at,
    lastInboundAt: (phone) => state.phones.get(phone)?.at,
    lastInboundChannel: (phone) => state.phones.get(phone)?.channel,
    lastInboundByClient: (clientId) => state.clients.get(clientId)?.at,
    flush: coalescedWrite(write),
  };
  return store;
}

/** The store read once, for a run that only looks windows up. A missing file knows no window. */
export async function loadWindow(file: string): Promise<WindowLookup> {
  const state = emptyState();
  merge(state, await readWindowFile(file));
  return { lastInboundAt: (phone) => state.phones.get(phone)?.at, lastInboundChannel: (phone) => state.phones.get(phone)?.channel };
}

function merge(state: State, from: WindowFile | undefined): void {
  if (!from) return;
  for (const [key, iso] of Object.entries(from.clients)) mergeMark(state.clients, key, iso, from.client_channels?.[key]);
  for (const [key, iso] of Object.entries(from.phones)) mergeMark(state.phones, key, iso, from.phone_channels?.[key]);
  for (const [clientId, phone] of Object.entries(from.links)) {
    if (!state.links.has(clientId) && typeof phone === 'string') state.links.set(clientId, phone);
  }
}

function mergeMark(map: Map<string, InboundMark>, key: string, iso: unknown, channel: unknown): void {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(at)) return;
  map.set(key, laterInbound(map.get(key), { at, ...(typeof channel === 'number' && Number.isInteger(channel) && { channel }) }));
}

function toFile(state: State): WindowFile {
  const iso = (map: Map<string, InboundMark>) => Object.fromEntries([...map].map(([key, m]) => [key, new Date(m.at).toISOString()]));
  const channels = (map: Map<string, InboundMark>) => Object.fromEntries([...map].flatMap(([key, m]) => (m.channel === undefined ? [] : [[key, m.channel]])));
  const clientChannels = channels(state.clients);
  const phoneChannels = channels(state.phones);
  // The numbers only when some are known: a store that never saw a pool's reply keeps its file as before.
  return {
    v: 1,
    clients: iso(state.clients),
    phones: iso(state.phones),
    links: Object.fromEntries(state.links),
    ...(Object.keys(clientChannels).length > 0 && { client_channels: clientChannels }),
    ...(Object.keys(phoneChannels).length > 0 && { phone_channels: phoneChannels }),
  };
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
  await makePrivateDir(dir);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await openPrivate(temp, 'w');
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
