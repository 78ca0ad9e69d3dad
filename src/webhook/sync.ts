/**
 * The safety net of the API document: the platform never retries a webhook, so `sync` polls
 * `GET /chat/conversations?updated_at=<mark>` and reads each changed conversation's messages after
 * the newest one already recorded, recording what the webhook missed exactly as the receiver does
 * (same log, same dedupe by message id, same window update). Direction comes from `senderType`:
 * `client` is inbound, anything else (`user`, `system`) outbound (A25, A26).
 *
 * Bookkeeping (sync.json): the conversation listing's high-water mark, advanced only past
 * conversations fully read (the listing is oldest change first and `>=`, A12), and per conversation
 * the newest message id recorded. A sync cut short resumes from the last save.
 */
import pLimit from 'p-limit';
import { pino, type Logger } from 'pino';
import type { Conversation, Message } from '../api/index.js';
import { createIngest, type IncomingMessage } from './ingest.js';
import { DEFAULT_KEYWORDS, type InboundKeywords } from './keywords.js';
import { applyKeywordReply } from './opt-out.js';
import { createPhoneLookup } from './phone-lookup.js';
import type { SyncApi } from './platform.js';
import type { StateStore } from '../checkpoint/index.js';
import { openWebhookState } from './state.js';

/** The start of the very first sync when no --since is given: the whole history. */
export const FIRST_SYNC_SINCE = '1970-01-01T00:00:00.000Z';
/** sync.json is saved after this many conversations (and at the end). */
const SAVE_EVERY = 50;
/** Messages recorded together (one fsync). */
const BATCH = 200;
/** Conversations whose messages are read at the same time. */
const SYNC_CONCURRENCY = 4;

export interface SyncOptions {
  api: SyncApi;
  /** Where events, windows and sync's progress are kept. */
  store: StateStore;
  /** ISO date-time: list conversations changed since then instead of since the last sync. */
  since?: string;
  logger?: Logger;
  /** Phones known from jobs' checkpoints, by client id. */
  knownPhones?: (clientId: string) => string | undefined;
  signal?: AbortSignal;
  /** Opt-out and opt-in keywords (default: the built-in lists). */
  keywords?: InboundKeywords;
  /** The company of a message no job's conversation and no single company of the store tells (`--company`). */
  company?: number;
}

export interface SyncResult {
  /** The `updated_at` the listing started from. */
  since: string;
  /** Changed conversations read. */
  conversations: number;
  /** Messages read from the platform. */
  messagesSeen: number;
  /** Of those, messages the log did not have yet. */
  recorded: number;
  /** Of those, inbound ones. */
  inboundRecorded: number;
  /** The mark the next sync starts from. */
  until: string;
  /** Phones put on the suppression list by an opt-out reply, and taken off by an opt-in reply. */
  optOuts: number;
  optIns: number;
}

export async function sync(options: SyncOptions): Promise<SyncResult> {
  const logger = options.logger ?? pino({ level: 'silent' });
  if (options.since !== undefined && Number.isNaN(Date.parse(options.since))) {
    throw new SyncSinceError(`--since "${options.since}" is not a date-time; write it as 2025-03-01T00:00:00Z`);
  }
  const state = await openWebhookState(options.store, options.company !== undefined ? { company: options.company } : {});
  try {
    const book = await options.store.loadSyncBook();
    const phones = createPhoneLookup({
      api: options.api,
      stored: (clientId) => state.window.phoneOf(clientId),
      ...(options.knownPhones ? { knownPhones: options.knownPhones } : {}),
      logger,
    });
    const ingest = createIngest(state, phones);
    const since = options.since ?? book.updatedAt ?? FIRST_SYNC_SINCE;
    const result: SyncResult = { since, conversations: 0, messagesSeen: 0, recorded: 0, inboundRecorded: 0, until: since, optOuts: 0, optIns: 0 };
    const paging = options.signal ? { signal: options.signal } : {};

    async function save(): Promise<void> {
      book.updatedAt = result.until;
      book.lastRun = new Date().toISOString();
      await state.window.flush();
      await options.store.saveSyncBook(book);
    }

    async function recordBatch(conversation: Conversation, batch: Message[]): Promise<void> {
      const clientId = String(conversation.client_id);
      const messages = batch.map((m) => toIncoming(m, conversation));
      // Phone first, so the records and the window carry it (one look-up per client).
      if (messages.some((m) => m.direction === 'inbound') && !phones.known(clientId)) await ingest.linkPhone(clientId);
      const outcomes = await Promise.all(messages.map((m) => ingest.record(m, 'sync')));
      outcomes.forEach(({ isNew }, i) => {
        if (!isNew) return;
        result.recorded += 1;
        if (messages[i]!.direction === 'inbound') result.inboundRecorded += 1;
      });
      // In message order, so a START after a STOP leaves the phone off the list.
      for (const { event } of outcomes) {
        // New or not: the receiver may have recorded a reply it could not act on (its phone unknown then),
        // and a STOP must not be lost. Acting again is harmless: the list goes by each reply's own time.
        const done = await applyKeywordReply(options.store, options.keywords ?? DEFAULT_KEYWORDS, event, event.phone ?? phones.known(clientId), logger);
        if (done?.changed && done.intent === 'opt_out') result.optOuts += 1;
        if (done?.changed && done.intent === 'opt_in') result.optIns += 1;
      }
      const newest = Math.max(...batch.map((m) => m.id));
      book.conversations.set(String(conversation.id), Math.max(book.conversations.get(String(conversation.id)) ?? 0, newest));
    }

    async function readConversation(conversation: Conversation): Promise<void> {
      const after = book.conversations.get(String(conversation.id)) ?? 0;
      let batch: Message[] = [];
      for await (const message of options.api.allMessagesAfter(conversation.id, after, paging)) {
        result.messagesSeen += 1;
        batch.push(message);
        if (batch.length >= BATCH) {
          await recordBatch(conversation, batch);
          batch = [];
        }
      }
      if (batch.length > 0) await recordBatch(conversation, batch);
    }

    // Up to SYNC_CONCURRENCY conversations are read at once; the high-water mark moves only past
    // conversations read to the end in listing order, so an interrupted sync never skips one.
    const limit = pLimit(SYNC_CONCURRENCY);
    const inOrder: Array<{ conversation: Conversation; done: boolean }> = [];
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    let savedAt = 0;
    const advance = () => {
      while (inOrder[0]?.done) {
        const { conversation } = inOrder.shift()!;
        result.conversations += 1;
        if (Date.parse(conversation.updated_at) > Date.parse(result.until)) result.until = conversation.updated_at;
      }
    };
    try {
      for await (const conversation of options.api.allConversationsSince(since, paging)) {
        const entry = { conversation, done: false };
        inOrder.push(entry);
        const task: Promise<void> = limit(async () => {
          await readConversation(conversation);
          entry.done = true;
          advance();
        })
          .catch((error: unknown) => {
            failure ??= { error };
          })
          .finally(() => running.delete(task));
        running.add(task);
        if (running.size >= SYNC_CONCURRENCY) await Promise.race(running);
        if (failure) break;
        if (result.conversations - savedAt >= SAVE_EVERY) {
          savedAt = result.conversations;
          await save();
        }
      }
      await Promise.all(running);
      if (failure) throw failure.error;
    } catch (err) {
      // Keep what was recorded before the failure (or Ctrl+C): the next sync resumes from there.
      await Promise.all(running);
      await save().catch((saveErr: unknown) => logger.error({ err: saveErr }, 'sync could not save its progress'));
      throw err;
    }
    await save();
    logger.debug(result, 'sync finished');
    return result;
  } finally {
    await state.close();
  }
}

function toIncoming(m: Message, conversation: Conversation): IncomingMessage {
  const at = Date.parse(m.createdAt);
  return {
    messageId: String(m.id),
    conversationId: String(conversation.id),
    clientId: String(conversation.client_id),
    direction: m.senderType === 'client' ? 'inbound' : 'outbound',
    senderType: m.senderType,
    ...(typeof m.content === 'string' ? { content: m.content } : {}),
    createdAt: Number.isNaN(at) ? m.createdAt : new Date(at).toISOString(),
    // A8: the listing's conversation names its number; a listing without it leaves the number to the jobs' states.
    ...(typeof conversation.channel_id === 'number' && Number.isInteger(conversation.channel_id) && { channelId: conversation.channel_id }),
  };
}

/** A --since a person must fix. */
export class SyncSinceError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'SyncSinceError';
  }
}
