import { makePrivateDir, writePrivateFile } from '../files/private.js';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import type { StateStore } from '../checkpoint/index.js';
import { normalisePhone, type Contact } from '../contacts/index.js';
import { decide, type Action, type PlanJob } from '../plan/index.js';
import { classify, planOf, startBody } from '../run/index.js';
import { audience } from './audience.js';
import { AppError } from './errors.js';
import { rendered } from './plan-pass.js';
import type { Prepared } from './prepare.js';
import { silentLogger } from './silent-logger.js';

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
  for (const [i, phone] of phones.entries()) {
    const { contact, action } = rows[i % rows.length] as { contact: Contact; action: Message };
    // The team's phone, with nothing of the row's person (no name on the platform's client): only the message carries the row's values.
    const body = startBody(job, { file: contact.file, line: contact.line, phone, vars: {} }, planOf(action).payload);
    const outcome: TestSend['outcome'] = await options.api.startWhatsapp(body).then(
      (r) => ({ kind: 'sent' as const, conversationId: r.conversationId, messageId: r.messageId }),
      (err: unknown) => ({ kind: 'failed' as const, error: classify(err).error }),
    );
    const send: TestSend = { phone, row: { file: contact.file, line: contact.line }, message: rendered(action), outcome };
    sends.push(send);
    const line = {
      at: new Date(clock()).toISOString(),
      job: job.name,
      phone,
      row: send.row,
      message: send.message,
      outcome: outcome.kind,
      ...(outcome.kind === 'sent' ? { conversation_id: outcome.conversationId, message_id: outcome.messageId } : { error: outcome.error }),
    };
    await writePrivateFile(file, `${JSON.stringify(line)}\n`, 'a');
    logger.info({ test_send: line }, `test send to ${phone}: ${outcome.kind}`);
  }
  return { job: job.name, sends, file };
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
