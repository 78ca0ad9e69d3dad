/**
 * The window store, `<stateDir>/window.json`: the last inbound message time per client id and per
 * phone, and which phone each client id has. The planner's 24-hour window (A23) reads it by phone.
 *
 * Format (times ISO, so a person can read it):
 *   {"v":1,"clients":{"<client id>":"<iso>"},"phones":{"<e164>":"<iso>"},"links":{"<client id>":"<e164>"},
 *    "client_channels":{"<client id>":<channel id>},"phone_channels":{"<e164>":<channel id>}}
 * The two `*_channels` maps name the number of the business each last inbound message came to, when
 * known (its window is that number's); a file without them is read as knowing none. The two
 * `*_companies` maps name the company each belongs to, when known: a company sees only its own marks
 * and those of no company (a mark of another company is no window of its own).
 *
 * Written whole and atomically (temp file, fsync, rename, fsync of the folder). Every value only
 * grows (times keep the latest), so a flush first merges what another process wrote meanwhile:
 * the receiver and `sync` can share the file. A lost race can only make a window look older,
 * which sends a template instead of free text: the safe side.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic.js';
import { storeWriteError } from './state-file-error.js';
import { inboundMark, laterInbound, markFor, type InboundMark, type WindowLookup, type WindowStore } from '../windows.js';
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
  /** The company a client's last inbound message belongs to, when known (absent in files of earlier versions). */
  client_companies?: Record<string, number>;
  /** The company a phone's last inbound message belongs to, when known. */
  phone_companies?: Record<string, number>;
}

interface State {
  clients: Map<string, InboundMark>;
  phones: Map<string, InboundMark>;
  links: Map<string, string>;
}

const emptyState = (): State => ({ clients: new Map(), phones: new Map(), links: new Map() });

/** The window store of `company` (its marks and those of no company; undefined: every mark); a mark noted without a company gets this one's. */
export async function openWindowStore(file: string, company?: number): Promise<FileWindowStore> {
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
    noteInbound({ clientId, phone, at, channelId, company: of }) {
      if (!Number.isFinite(at)) return;
      const mark = inboundMark(at, channelId, of ?? company);
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
    lastInboundByPhone: (phone) => markFor(state.phones.get(phone), company)?.at,
    lastInboundAt: (phone) => markFor(state.phones.get(phone), company)?.at,
    lastInboundChannel: (phone) => markFor(state.phones.get(phone), company)?.channel,
    lastInboundByClient: (clientId) => markFor(state.clients.get(clientId), company)?.at,
    flush: coalescedWrite(write),
  };
  return store;
}

/** The store read once, for a run that only looks windows up (`company`'s marks and those of no company). A missing file knows no window. */
export async function loadWindow(file: string, company?: number): Promise<WindowLookup> {
  const state = emptyState();
  merge(state, await readWindowFile(file));
  return { lastInboundAt: (phone) => markFor(state.phones.get(phone), company)?.at, lastInboundChannel: (phone) => markFor(state.phones.get(phone), company)?.channel };
}

/**
 * Takes the marks and links of the window file `from` (another state folder's) into `file`: times only
 * grow, so a later mark of `file` stays; a mark of no company is taken as `company`'s when given. How
 * many marks moved, and how many `file` already had as late.
 */
export async function importWindowFile(file: string, from: string, company?: number): Promise<{ imported: number; already: number }> {
  const theirs = emptyState();
  merge(theirs, await readWindowFile(from));
  const mine = emptyState();
  merge(mine, await readWindowFile(file));
  let imported = 0;
  let already = 0;
  const take = (to: Map<string, InboundMark>, marks: Map<string, InboundMark>) => {
    for (const [key, mark] of marks) {
      const given = mark.company === undefined && company !== undefined ? { ...mark, company } : mark;
      const had = to.get(key);
      const kept = laterInbound(had, given);
      if (kept !== had) {
        to.set(key, kept);
        imported += 1;
      } else already += 1;
    }
  };
  take(mine.clients, theirs.clients);
  take(mine.phones, theirs.phones);
  for (const [clientId, phone] of theirs.links) if (!mine.links.has(clientId)) mine.links.set(clientId, phone);
  if (imported > 0 || theirs.links.size > 0) {
    await writeFileAtomic(file, JSON.stringify(toFile(mine)) + '\n').catch((err: unknown) => {
      throw storeWriteError(err, file, 'the window store');
    });
  }
  return { imported, already };
}

function merge(state: State, from: WindowFile | undefined): void {
  if (!from) return;
  for (const [key, iso] of Object.entries(from.clients)) mergeMark(state.clients, key, iso, from.client_channels?.[key], from.client_companies?.[key]);
  for (const [key, iso] of Object.entries(from.phones)) mergeMark(state.phones, key, iso, from.phone_channels?.[key], from.phone_companies?.[key]);
  for (const [clientId, phone] of Object.entries(from.links)) {
    if (!state.links.has(clientId) && typeof phone === 'string') state.links.set(clientId, phone);
  }
}

const wholeNumber = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) ? n : undefined);

function mergeMark(map: Map<string, InboundMark>, key: string, iso: unknown, channel: unknown, company: unknown): void {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN;
  if (Number.isNaN(at)) return;
  map.set(key, laterInbound(map.get(key), inboundMark(at, wholeNumber(channel), wholeNumber(company))));
}

function toFile(state: State): WindowFile {
  const iso = (map: Map<string, InboundMark>) => Object.fromEntries([...map].map(([key, m]) => [key, new Date(m.at).toISOString()]));
  const numbers = (map: Map<string, InboundMark>, part: 'channel' | 'company') => Object.fromEntries([...map].flatMap(([key, m]) => (m[part] === undefined ? [] : [[key, m[part]]])));
  const optional = (name: string, values: Record<string, unknown>) => (Object.keys(values).length > 0 ? { [name]: values } : {});
  // The numbers and companies only when some are known: a store that never saw a pool's reply keeps its file as before.
  return {
    v: 1,
    clients: iso(state.clients),
    phones: iso(state.phones),
    links: Object.fromEntries(state.links),
    ...optional('client_channels', numbers(state.clients, 'channel')),
    ...optional('phone_channels', numbers(state.phones, 'channel')),
    ...optional('client_companies', numbers(state.clients, 'company')),
    ...optional('phone_companies', numbers(state.phones, 'company')),
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
