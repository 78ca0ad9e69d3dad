/**
 * The webhook's event log, `<stateDir>/events.jsonl`: one accepted `chat.message` a line, append-only,
 * shared by every job of the state folder and by every process writing it (the receiver and `sync`).
 *
 * - A message id is recorded once: `record` answers whether the event was new.
 * - Appends are durable before `record` resolves (one write + fdatasync per batch: group commit).
 * - A torn last line (a crash mid-write) is skipped on reading and never glued to the next record.
 * - Before each batch the log reads what other processes appended since, so two writers rarely
 *   record the same message twice; readers dedupe anyway.
 */
import { createReadStream } from 'node:fs';
import { makePrivateDir, openPrivate } from '../../files/private.js';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fsyncDir } from '../../files/fsync-dir.js';
import { scanCompleteLines } from './scan-lines.js';
import { parseEventLine } from '../json-line.js';
import { storeWriteError } from './state-file-error.js';
import type { EventsLog, OpenEventsLogOptions, RecordedEvent, SentContact } from '../inbound.js';

/** The file backend's events log: the port's, and the file it lives in. */
export interface FileEventsLog extends EventsLog {
  readonly file: string;
}

interface Pending {
  event: RecordedEvent;
  resolve: (isNew: boolean) => void;
  reject: (err: unknown) => void;
}

export async function openEventsLog(file: string, options: OpenEventsLogOptions = {}): Promise<FileEventsLog> {
  await makePrivateDir(path.dirname(file));
  const handle = await openPrivate(file, 'a+');

  const seen = new Set<string>();
  /** Bytes of the file read so far, always just after a newline (or 0). */
  let offset = 0;
  /** The file ends with bytes that are not a complete line. */
  let tornTail = false;
  const inFlight = new Map<string, Promise<boolean>>();
  let queue: Pending[] = [];
  let pumping: Promise<void> | undefined;
  let closed = false;

  async function catchUp(onEvent?: (event: RecordedEvent) => void): Promise<void> {
    const { size } = await handle.stat();
    if (size <= offset) {
      tornTail = false;
      return;
    }
    const read = await scanCompleteLines(handle, offset, size, (line) => {
      const event = parseEventLine(line);
      if (event === undefined || seen.has(event.message_id)) return;
      seen.add(event.message_id);
      onEvent?.(event);
    });
    offset = read;
    tornTail = read < size;
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    const fresh: Pending[] = [];
    try {
      await catchUp();
      for (const p of batch) {
        if (seen.has(p.event.message_id)) p.resolve(false);
        else {
          seen.add(p.event.message_id);
          fresh.push(p);
        }
      }
      if (fresh.length === 0) return;
      const text = (tornTail ? '\n' : '') + fresh.map((p) => JSON.stringify(p.event) + '\n').join('');
      // One write call per batch, so another process's lines never land inside ours.
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at)).bytesWritten;
      await handle.datasync();
      // Our own lines are read again by the next catch-up (harmless: their ids are already seen).
      tornTail = false;
      for (const p of fresh) p.resolve(true);
    } catch (err) {
      for (const p of fresh) seen.delete(p.event.message_id);
      const failure = storeWriteError(err, file, 'the events log');
      for (const p of batch) p.reject(failure);
    }
  }

  function pump(): Promise<void> {
    pumping ??= (async () => {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await writeBatch(batch);
      }
      pumping = undefined;
    })();
    return pumping;
  }

  try {
    if ((await handle.stat()).size === 0) await fsyncDir(path.dirname(file));
    await catchUp(options.onLoad);
  } catch (err) {
    await handle.close();
    throw err;
  }

  return {
    file,
    get size() {
      return seen.size;
    },
    has: (messageId) => seen.has(messageId),
    record(event) {
      if (closed) return Promise.reject(new Error(`events log ${file} is closed`));
      const id = event.message_id;
      // A copy being written: answer once it is durable.
      const running = inFlight.get(id);
      if (running) return running.then(() => false);
      if (seen.has(id)) return Promise.resolve(false);
      const promise = new Promise<boolean>((resolve, reject) => {
        queue.push({ event, resolve, reject });
      }).finally(() => inFlight.delete(id));
      inFlight.set(id, promise);
      void pump();
      return promise;
    },
    async close() {
      if (closed) return;
      closed = true;
      while (pumping) await pumping;
      await handle.close();
    },
  };
}

/** Streams the events of the log, each message once, skipping torn or foreign lines. A missing file is empty. */
export async function* readEvents(file: string): AsyncGenerator<RecordedEvent> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const seen = new Set<string>();
  try {
    for await (const line of lines) {
      const event = parseEventLine(line);
      if (!event || seen.has(event.message_id)) continue;
      seen.add(event.message_id);
      yield event;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/**
 * For each contact who wrote to the company after the job's message to them, the time (ISO) of the
 * first such inbound message. A message matches a contact by client id, conversation id or phone;
 * `phoneOfClient` (the window store's links) adds matches for events recorded before the phone was known.
 * The inbound messages are indexed first and the contacts then streamed past them, so the memory is
 * that of the events log's inbound messages, not of the job's contacts.
 */
export async function repliesFor(
  eventsFile: string,
  contacts: Iterable<readonly [string, SentContact]>,
  phoneOfClient?: (clientId: string) => string | undefined,
): Promise<Map<string, string>> {
  const byClient = new Map<string, number[]>();
  const byConversation = new Map<string, number[]>();
  const byPhone = new Map<string, number[]>();
  for await (const e of readEvents(eventsFile)) {
    if (e.direction !== 'inbound') continue;
    const at = Date.parse(e.created_at);
    if (Number.isNaN(at)) continue;
    push(byClient, e.client_id, at);
    push(byConversation, e.conversation_id, at);
    const linked = e.phone ?? phoneOfClient?.(e.client_id);
    if (linked !== undefined) push(byPhone, linked, at);
  }
  const replies = new Map<string, string>();
  if (byClient.size === 0 && byPhone.size === 0) return replies;
  for (const [phone, c] of contacts) {
    const sent = Date.parse(c.sentAt);
    if (Number.isNaN(sent)) continue;
    let first = Number.POSITIVE_INFINITY;
    for (const times of [c.clientId && byClient.get(c.clientId), c.conversationId && byConversation.get(c.conversationId), byPhone.get(phone)]) {
      if (!times) continue;
      for (const at of times) if (at > sent && at < first) first = at;
    }
    if (first !== Number.POSITIVE_INFINITY) replies.set(phone, new Date(first).toISOString());
  }
  return replies;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

