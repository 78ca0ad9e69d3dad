/**
 * What becomes of a valid delivery: recorded in the store, or kept in the spool while the store
 * cannot take it, and applied from there when it is back, without a restart.
 *
 * - While nothing is spooled, an event is recorded in the store (durable) within the budget
 *   (`storeTimeoutMs`); then, after the answer, its phone is looked up, its window flushed and an
 *   opt-out or opt-in keyword applied to its company's suppression list.
 * - When the store fails or does not answer within the budget, the event goes to the spool
 *   (fdatasync'd) and the answer is still 200. From then on, while anything is spooled, new events go
 *   to the spool too, so they are applied in the order they came. An event recorded whose follow-up
 *   (its keyword, its window) then failed is spooled too: the STOP is not lost.
 * - A loop (spool-drain.ts) retries the store with a growing wait and applies the spooled events in
 *   order: recorded once by message id, the window moved, the keyword applied to the company's list
 *   (whether or not the record was new: an earlier attempt may have recorded it late); then released.
 * - A receiver started while the store is down (or with events left in the spool) starts all the same:
 *   it spools until the store opens, and applies what is left at once.
 *
 * Without a spool folder the receiver behaves as before: a delivery it cannot record is answered 500.
 */
import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { StoreUnavailableError, StoreWriteError, type RecordedEvent, type StateStore } from '../checkpoint/index.js';
import { createBackground } from './background.js';
import { createIngest, describeMessage, type Ingest } from './ingest.js';
import type { InboundKeywords } from './keywords.js';
import { applyKeywordReply, type KeywordOutcome } from './opt-out.js';
import type { ChatMessageEvent } from './parse-event.js';
import { createPhoneLookup, type PhoneLookup } from './phone-lookup.js';
import type { ClientReader } from './platform.js';
import { drainLoop, type Sleep } from './spool-drain.js';
import { openSpool, type Spool } from './spool.js';
import { openWebhookState, type WebhookState } from './state.js';
import { withTimeout } from './store-timeout.js';

/** The budget of one store operation of the receiver: inside the platform's 10 s with room for the spool's write. */
export const STORE_TIMEOUT_MS = 4_000;
/** Spooled events applied together. */
const APPLY_BATCH = 200;
/** Phone look-ups on the platform at once while the spool is applied. */
const LOOKUPS_AT_ONCE = 4;

export interface IntakeOptions {
  store: StateStore;
  keywords: InboundKeywords;
  logger: Logger;
  api?: ClientReader;
  knownPhones?: (clientId: string) => string | undefined;
  company?: number;
  /** Where events wait while the store cannot take them; without it, such a delivery is refused (500). */
  spoolDir?: string;
  /** How long one store operation may take before the event is spooled (default STORE_TIMEOUT_MS). */
  storeTimeoutMs?: number;
  /** The wait between two tries of the store while events are spooled (default: a timer). */
  sleep?: Sleep;
  now?: () => Date;
  /** Called once the event is recorded in the store (`isNew` false for a message already there), at once or from the spool. */
  onEvent?: (event: RecordedEvent, isNew: boolean) => void;
  /** Called with each phone an opt-out reply put on the suppression list. */
  onOptOut?: (phone: string) => void;
}

export type Accepted = { result: 'accepted' | 'duplicate' | 'spooled'; event: RecordedEvent } | { result: 'failed'; error: unknown };

/** What the receiver can say of the store and its spool now (a health probe's source). */
export interface SpoolHealth {
  /** Whether the store took the last thing asked of it. */
  storeUp: boolean;
  /** Whether events go to the spool now (the store failed, or events wait there). */
  spooling: boolean;
  /** Events waiting in the spool. */
  spooled: number;
  /** Why the store is taken as down, in one sentence. */
  reason?: string;
  /** Why the last event could not be written to the spool either (the disk is full…). */
  spoolError?: string;
}

export interface Intake {
  accept(message: ChatMessageEvent): Promise<Accepted>;
  health(): SpoolHealth;
  readonly phones: PhoneLookup;
  /** Spooled events applied to the store since the start, and spool lines skipped at opening (torn). */
  readonly counts: { applied: number; skippedLines: number };
  /** Resolves when the work after the answers (look-ups, keywords, windows) is done. */
  settled(): Promise<void>;
  /** Resolves when the store is open and the spool empty (never while the store stays down). */
  drained(): Promise<void>;
  close(): Promise<void>;
}

export async function openIntake(options: IntakeOptions): Promise<Intake> {
  const { store, logger, keywords } = options;
  const budget = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const timed = <T>(work: Promise<T>, what: string) => withTimeout(work, budget, what);
  let opened: { state: WebhookState; ingest: Ingest } | undefined;
  let opening: Promise<{ state: WebhookState; ingest: Ingest }> | undefined;
  let closed = false;
  const phones = createPhoneLookup({
    ...(options.api ? { api: options.api } : {}),
    ...(options.knownPhones ? { knownPhones: options.knownPhones } : {}),
    stored: (clientId) => opened?.state.window.phoneOf(clientId),
    logger,
  });
  const open = () =>
    (opening ??= openWebhookState(store, options.company !== undefined ? { company: options.company } : {})
      .then(async (state) => {
        if (closed) {
          await state.close().catch(() => undefined);
          throw new Error('the receiver closed');
        }
        opened = { state, ingest: createIngest(state, phones, now) };
        return opened;
      })
      .finally(() => (opening = undefined)));

  let storeUp = true;
  let reason: string | undefined;
  let spoolError: string | undefined;
  const counts = { applied: 0, skippedLines: 0 };
  const wentDown = (err: unknown) => {
    storeUp = false;
    reason = errorLine(err);
  };
  const isUp = () => {
    if (!storeUp && spool !== undefined && spool.size > 0) logger.info({ event: 'webhook_store_back', spooled: spool.size }, `the store answers again; applying the ${spool.size} event(s) kept in the spool`);
    storeUp = true;
    reason = undefined;
  };

  let spool: Spool | undefined;
  if (options.spoolDir !== undefined) {
    const found = await openSpool(options.spoolDir);
    spool = found.spool;
    counts.skippedLines = found.skipped.length;
    for (const line of found.skipped) {
      const what = line.reason === 'torn' ? 'is torn (a write cut short by a crash; the delivery was never answered)' : 'is not an event';
      const recover = line.messageId !== undefined ? `message ${line.messageId} is not applied from it; \`outreach sync\` recovers it from the platform` : 'it is not applied; `outreach sync` recovers what the platform has';
      logger.error({ event: 'webhook_spool_line_skipped', file: line.file, line: line.line, messageId: line.messageId }, `${line.file} line ${line.line} ${what}: skipped; ${recover}`);
    }
    try {
      await timed(open(), 'opening the events log and the windows');
    } catch (err) {
      wentDown(err);
      logger.error({ event: 'webhook_store_down', err: errorLine(err) }, `${errorLine(err)}; the receiver starts all the same and keeps events in ${spool.dir} until the store is back`);
    }
  } else {
    await open();
  }

  const background = createBackground((err) => logger.error({ err }, 'webhook follow-up work failed'));

  /** One pass of the loop: the store opened, then the oldest spooled events applied and released. */
  async function pass(): Promise<boolean> {
    const { state, ingest } = opened ?? (await timed(open(), 'opening the events log and the windows'));
    if (spool === undefined) return true;
    const batch = spool.peek(APPLY_BATCH);
    if (batch.length === 0) {
      if (spool.size === 0) {
        isUp();
        return true;
      }
      await spool.idle();
      return false;
    }
    // The phones first (the platform's look-ups have their own timeouts), so the records and the windows carry them.
    const unknown = new Set(batch.filter((e) => e.direction === 'inbound' && !e.phone && phones.known(e.client_id) === undefined).map((e) => e.client_id));
    const lookUp = pLimit(LOOKUPS_AT_ONCE);
    await Promise.all(
      [...unknown].map((clientId) =>
        lookUp(async () => {
          const phone = await phones.resolve(clientId);
          if (phone !== undefined) state.window.linkPhone(clientId, phone);
        }),
      ),
    );
    const events = await timed(Promise.all(batch.map((e) => ingest.complete(e))), 'reading the conversations of spooled events');
    const outcomes = await timed(Promise.all(events.map((e) => ingest.recordEvent(e))), 'recording spooled events');
    isUp();
    // In order, so a START after a STOP leaves the phone off the list.
    for (const { event } of outcomes) optedOut(await timed(applyKeywordReply(store, keywords, event, event.phone, logger), 'applying an opt-out or opt-in reply'));
    await timed(state.window.flush(), 'writing the reply windows');
    await spool.release(batch.length);
    counts.applied += batch.length;
    logger.info({ event: 'webhook_spool_applied', applied: batch.length, left: spool.size }, `${batch.length} event(s) kept in the spool applied to the store; ${spool.size} left`);
    for (const { event, isNew } of outcomes) tell(event, isNew);
    return spool.size === 0;
  }

  const drain = drainLoop({
    pass,
    sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal })),
    onFailure(err, failures) {
      const wasUp = storeUp;
      wentDown(err);
      const fields = { event: 'webhook_store_down', err: errorLine(err), spooled: spool?.size, failures };
      const line = `${errorLine(err)}; ${spool?.size ?? 0} event(s) wait in the spool ${spool?.dir ?? ''}, tried again shortly`;
      // Said when the store goes down, then every 20th try: a long outage does not fill the log.
      if (wasUp) logger.error(fields, line);
      else if (failures % 20 === 0) logger.warn(fields, `still ${line} (${failures} tries so far)`);
      else logger.debug(fields, line);
    },
    onRecovery: isUp,
  });
  const spooling = () => spool !== undefined && (spool.size > 0 || opened === undefined);
  if (spool !== undefined && spool.size > 0) logger.info({ event: 'webhook_spool_found', spooled: spool.size }, `${spool.size} event(s) an earlier run kept in the spool ${spool.dir}: applying them`);
  if (spooling()) drain.wake();

  function optedOut(keyword: KeywordOutcome | undefined): void {
    if (keyword?.intent !== 'opt_out' || !keyword.changed) return;
    try {
      options.onOptOut?.(keyword.phone);
    } catch (err) {
      logger.error({ err }, 'onOptOut callback failed');
    }
  }

  function tell(event: RecordedEvent, isNew: boolean): void {
    try {
      options.onEvent?.(event, isNew);
    } catch (err) {
      logger.error({ err }, 'onEvent callback failed');
    }
  }

  /** Keeps the event in the spool (durable when it resolves). */
  async function keep(event: RecordedEvent, again = false): Promise<Accepted> {
    if (spool === undefined) return { result: 'failed', error: new Error('no spool') };
    if (!again && (spool.has(event.message_id) || opened?.state.events.has(event.message_id))) return { result: 'duplicate', event };
    try {
      await spool.append(event);
      spoolError = undefined;
    } catch (err) {
      spoolError = errorLine(err);
      logger.error({ event: 'webhook_spool_failed', err: spoolError, messageId: event.message_id }, `the event could not be kept in the spool ${spool.dir} either: ${spoolError}`);
      return { result: 'failed', error: err };
    }
    drain.wake();
    return { result: 'spooled', event };
  }

  /** After the answer: the phone, the number, the keyword, the window; a store failure spools the event again. */
  function followUp(ingest: Ingest, state: WebhookState, event: RecordedEvent, isNew: boolean): void {
    background.run(async () => {
      let phone = event.phone;
      try {
        if (event.direction === 'inbound' && !phone) phone = await ingest.linkPhone(event.client_id);
        if (event.direction === 'inbound') await timed(ingest.linkNumber(event), 'reading the number of the conversation');
        if (isNew) optedOut(await timed(applyKeywordReply(store, keywords, event, phone, logger), 'applying an opt-out or opt-in reply'));
        await timed(state.window.flush(), 'writing the reply windows');
      } catch (err) {
        if (spool === undefined) throw err;
        wentDown(err);
        logger.error({ event: 'webhook_store_down', err: errorLine(err), messageId: event.message_id }, `${errorLine(err)}; the event is kept in the spool so that its window and any opt-out are applied when the store is back`);
        await keep({ ...event, ...(phone !== undefined && { phone }) }, true);
      }
    });
  }

  return {
    phones,
    counts,
    async accept(message) {
      const event = opened !== undefined ? opened.ingest.describe(message, 'webhook') : unattributed(message);
      if (spooling()) return keep(event);
      const { ingest, state } = opened ?? (await open());
      try {
        const recorded = await timed(ingest.recordEvent(event), 'recording the event');
        isUp();
        tell(recorded.event, recorded.isNew);
        followUp(ingest, state, recorded.event, recorded.isNew);
        return { result: recorded.isNew ? 'accepted' : 'duplicate', event: recorded.event };
      } catch (err) {
        wentDown(err);
        if (spool === undefined) return { result: 'failed', error: err };
        logger.error({ event: 'webhook_store_down', err: errorLine(err), messageId: event.message_id }, `${errorLine(err)}; the event is kept in the spool ${spool.dir} and applied when the store is back`);
        return keep(event);
      }
    },
    health: () => ({
      storeUp,
      spooling: spooling(),
      spooled: spool?.size ?? 0,
      ...(!storeUp && reason !== undefined && { reason }),
      ...(spoolError !== undefined && { spoolError }),
    }),
    settled: () => background.settled(),
    async drained() {
      while (!closed) {
        if (drain.running) {
          await drain.ended();
          continue;
        }
        if (!spooling()) return;
        drain.wake();
      }
    },
    async close() {
      closed = true;
      await drain.stop();
      await background.settled();
      if (spool !== undefined) {
        await spool.idle();
        await spool.close();
      }
      if (opened !== undefined) {
        await timed(opened.state.close(), 'closing the events log').catch((err: unknown) => logger.warn({ err: errorLine(err) }, `the store did not answer while closing (${errorLine(err)}); what it did not record waits in the spool`));
      }
    },
  };

  /** The event of a delivery received before the store could be read: attributed when applied. */
  function unattributed(message: ChatMessageEvent): RecordedEvent {
    const phone = phones.known(message.clientId);
    return describeMessage(message, 'webhook', now().toISOString(), phone !== undefined ? { phone } : {});
  }
}

/** What went wrong, in one sentence: a store error's problem without its advice to a run (`outreach resume`…), which the receiver's own lines replace. */
function errorLine(err: unknown): string {
  if (err instanceof StoreWriteError || err instanceof StoreUnavailableError) return err.problem;
  return err instanceof Error ? err.message : String(err);
}
