import { makePrivateDir, writePrivateFile } from '../../files/private.js';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ApiClient } from '../../api/index.js';
import type { StateStore } from '../../checkpoint/index.js';
import { normalisePhone, type Contact } from '../../contacts/index.js';
import { decide, type Action, type PlanJob } from '../../plan/index.js';
import type { CheckpointEvent } from '../../checkpoint/index.js';
import { abortableSleep, createRateLimiter, deliver, type SendContext } from '../../run/index.js';
import { audience } from '../audience/index.js';
import { AppError } from '../errors.js';
import { rendered } from '../plan/index.js';
import type { Prepared } from '../prepare/index.js';
import { silentLogger } from '../silent-logger.js';

/** One phone of a test send: which row's values its message carried, and what the platform said. */
export interface TestSend {
  phone: string;
  row: { file: string; line: number };
  /** The message as `plan` shows it: `template promo_bf (pt_BR) {{1}}="Ana"`, or the text. */
  message: string;
  outcome: { kind: 'sent'; conversationId: string; messageId: number } | { kind: 'failed'; error: string };
}

export interface TestSendResult {
  job: string;
  sends: TestSend[];
  /** Where the test sends are recorded (one JSON line each), apart from the job's state. */
  file: string;
}

export interface TestSendOptions {
  api: ApiClient;
  store: StateStore;
  /** The phones to send to, as written (`--test-to` or the job's `test_to`). */
  phones: readonly string[];
  /** Names where the phones came from in a refusal (`--test-to`, `test_to`). */
  source?: string;
  clock?: () => number;
  /** Waits between tries (a retry's backoff); returns early when the signal aborts. Tests shorten it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
}

type Message = Extract<Action, { kind: 'template' | 'text' }>;

/**
 * A test send: the campaign's first message, rendered with the values of the list's first usable
 * rows (the first phone gets the first row's, the second the second's…), sent to the listed phones
 * only. It is not the campaign's: nothing goes to the job's state, the ledger of first messages or
 * the report, no after-send step runs, and the job's lock is not taken. Each send is one line of the
 * job's `test-sends.jsonl` and of its run log. A phone that is not a phone number refuses the whole
 * test before anything is sent (AppError `invalid`).
 */
export async function testSend(prepared: Prepared, options: TestSendOptions): Promise<TestSendResult> {
  const { job } = prepared;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? silentLogger();
  const phones = options.phones.map((raw) => {
    const result = normalisePhone(raw, job.default_country);
    if (!result.ok) throw new AppError(`${options.source ?? 'test_to'}: "${raw}" is not a phone number (${result.detail}); write it as +<country code><number>, e.g. +5511987654321`, 'invalid');
    return result.e164;
  });
  const rows = await firstMessages(prepared, phones.length, clock());
  if (rows.length === 0) throw new AppError(`the list of job "${job.name}" has no row its message can be rendered for; \`outreach plan\` says why`, 'invalid');
  const file = options.store.account(job.company_id).jobFiles(job.name).testSends;
  await makePrivateDir(path.dirname(file));
  const sends: TestSend[] = [];
  const sending = testContext(prepared, options, clock);
  try {
    for (const [i, phone] of phones.entries()) {
      const { contact, action } = rows[i % rows.length] as { contact: Contact; action: Message };
      const outcome = await sendOne(sending, { file: contact.file, line: contact.line, phone }, action);
      sends.push(await note(job.name, { file, clock, logger }, { phone, row: { file: contact.file, line: contact.line }, message: rendered(action), outcome }));
    }
  } finally {
    await sending.ctx.limiter.stop().catch(() => undefined);
  }
  return { job: job.name, sends, file };
}

interface TestContext {
  ctx: SendContext;
  /** The events the send loop wrote for the phone being sent (kept here: a test send has no journal). */
  events: CheckpointEvent[];
}

/**
 * The campaign's send loop with nothing of the campaign's state: the job's rate and retries (a 502
 * heals on its conversation as the campaign's first message does), no after-send step, no journal,
 * no suppression of the team's phones.
 */
function testContext(prepared: Prepared, options: TestSendOptions, clock: () => number): TestContext {
  const { job } = prepared;
  const events: CheckpointEvent[] = [];
  const never = new AbortController().signal;
  const ctx: SendContext = {
    api: options.api,
    job: { ...job, after_send: { tags: [], custom_fields: {} } },
    channel: prepared.channel,
    limiter: createRateLimiter({ perSecond: job.rate.per_second }),
    record: async (event) => void events.push(event),
    clock,
    sleep: options.sleep ?? abortableSleep,
    random: Math.random,
    planContext: (_contact, now) => ({ now }),
    stopSignal: never,
    requestSignal: never,
    onAuthRefused: () => undefined,
    onProviderStop: () => undefined,
    onOptedOut: async () => undefined,
  };
  return { ctx, events };
}

/** One phone: the team's phone, with nothing of the row's person (no name on the platform's client): only the message carries the row's values. */
async function sendOne(sending: TestContext, who: { file: string; line: number; phone: string }, action: Message): Promise<TestSend['outcome']> {
  sending.events.length = 0;
  const result = await deliver(sending.ctx, { ...who, vars: {} }, undefined, action, { retryFailed: false, retryInDoubt: false });
  const sent = sending.events.find((e): e is Extract<CheckpointEvent, { t: 'sent' }> => e.t === 'sent');
  if (result.kind === 'sent' && sent !== undefined) return { kind: 'sent', conversationId: sent.conversation_id, messageId: Number(sent.message_id) };
  switch (result.kind) {
    case 'failed':
      return { kind: 'failed', error: result.error };
    case 'in_doubt':
      return { kind: 'failed', error: `no answer, it may have reached the phone: ${result.error}` };
    case 'deferred':
      return { kind: 'failed', error: `the provider holds it back (${result.reason}) until ${new Date(result.notBefore).toISOString()}` };
    default:
      return { kind: 'failed', error: `not sent (${result.kind})` };
  }
}

/** A test send as one line of the job's `test-sends.jsonl` and of its run log. */
async function note(job: string, to: { file: string; clock: () => number; logger: Logger }, send: TestSend): Promise<TestSend> {
  const { outcome, phone } = send;
  const line = {
    at: new Date(to.clock()).toISOString(),
    job,
    phone,
    row: send.row,
    message: send.message,
    outcome: outcome.kind,
    ...(outcome.kind === 'sent' ? { conversation_id: outcome.conversationId, message_id: outcome.messageId } : { error: outcome.error }),
  };
  await writePrivateFile(to.file, `${JSON.stringify(line)}\n`, 'a');
  to.logger.info({ test_send: line }, `test send to ${phone}: ${outcome.kind}`);
  return send;
}

/**
 * The first `count` usable rows of the list with the message the job would send them, decided as if
 * nothing held them back: no quiet hours, consent, suppression or limits (those concern the row's
 * person, not the team's phone that gets the test).
 */
async function firstMessages(prepared: Prepared, count: number, now: number): Promise<Array<{ contact: Contact; action: Message }>> {
  const { send_window: _window, limits: { daily_unique_recipients: _limit, ...limits }, ...rest } = prepared.job;
  const job: PlanJob = { ...rest, limits, require_opt_in: false };
  const found: Array<{ contact: Contact; action: Message }> = [];
  const { items } = audience(prepared, { decide: (contact) => decide(contact, prepared.channel, job, { now }) });
  for await (const item of items) {
    if (item.kind !== 'contact' || (item.action?.kind !== 'template' && item.action?.kind !== 'text')) continue;
    found.push({ contact: item.contact, action: item.action });
    if (found.length >= count) break;
  }
  return found;
}
