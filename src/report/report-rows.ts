import type { ContactState, ContactStatus } from '../checkpoint/types.js';
import { actionLabel } from './action-label.js';
import { failureClassOf } from './failure-classes.js';

/** One line of the per-contact report. Ids and error are null when unknown. */
export interface ReportRow {
  phone: string;
  status: ContactStatus;
  action: string;
  conversation_id: string | null;
  client_id: string | null;
  message_id: string | null;
  attempts: number;
  error: string | null;
  replied_at?: string;
  line?: number;
  updated_at?: string;
  /** ISO time the message was sent. */
  sent_at?: string;
  media_left_out?: boolean;
  /** Follow-up steps not done, `;`-separated (e.g. `media;tag:vip`). */
  followups_pending?: string;
  http_status?: number;
  /** Deferred: when it may go (ISO). */
  not_before?: string;
  /** The WhatsApp provider's code of the refusal behind a failure or a deferral (absent when none). */
  error_code?: number;
  /** Failed or in doubt: the class of that refusal (`undeliverable`, `opted_out`, … or `other`); a deferral by the provider: its class. */
  error_class?: string;
  name?: string;
  /** The phone cell as written in the contact list. */
  phone_as_written?: string;
  source_file?: string;
  source_line?: number;
  /** The message variant the contact gets (`default` for the job's own), when the job has variants. */
  variant?: string;
  /** An experiment's arm the contact gets (its test arm, or the winner), when the job is an experiment. */
  arm?: string;
  /** A pool's job: the number the contact was sent from (its last request's, when not sent). */
  channel_id?: number;
  /** What `track` last read: sent, delivered, read or failed; empty when never read. */
  delivery_status?: string;
  delivered_at?: string;
  read_at?: string;
  /** The provider's code of a delivery failure. */
  failure_code?: number;
  /** The row's own columns (`report --columns`), by header. */
  source_columns?: Record<string, string>;
}

/** What the report shows of a contact's row in the list (app/list/contacts.ts fills it). */
export interface RowSource {
  file?: string;
  line?: number;
  name?: string;
  phoneAsWritten?: string;
  variant?: string;
  columns?: Record<string, string>;
}

export interface ReportExtra {
  /** ISO time of each phone's reply. */
  replies?: ReadonlyMap<string, string>;
  /** The list's contacts: those the checkpoint has not seen are reported as `pending` (each phone once). */
  pendingPhones?: Iterable<{ phone: string; line?: number }>;
  /** Each phone's row in the list. */
  sources?: { get(phone: string): RowSource | undefined };
  /** `pendingPhones` are known to have no state (they are not looked up in `states` again). */
  pendingUnseen?: boolean;
}

/**
 * One row per contact: the checkpoint's contacts in journal order, then the list's contacts it has
 * not seen (each phone once). Pure.
 */
export function reportRows(states: ReadonlyMap<string, ContactState>, extra: ReportExtra = {}): ReportRow[] {
  return [...reportRowsOf(states, extra)];
}

/** The same rows one at a time, for a report streamed to its file (no array of a million rows). */
export function* reportRowsOf(states: ReadonlyMap<string, ContactState>, extra: ReportExtra = {}): Generator<ReportRow> {
  for (const s of states.values()) yield contactRow(s.phone, s, extra.sources?.get(s.phone), extra.replies?.get(s.phone));
  const seen = new Set<string>();
  for (const p of extra.pendingPhones ?? []) {
    if ((extra.pendingUnseen !== true && states.has(p.phone)) || seen.has(p.phone)) continue;
    seen.add(p.phone);
    yield contactRow(p.phone, undefined, extra.sources?.get(p.phone), extra.replies?.get(p.phone), p.line);
  }
}

/**
 * One contact's row: its state's, or a pending row when it has none, with its row's source in the list.
 * Pure. Built by assignment, not by spreading parts (a million rows make no object besides the row),
 * in the order the parts were always merged: the source's fields, the state's, then its delivery's.
 */
export function contactRow(phone: string, state: ContactState | undefined, source: RowSource | undefined, repliedAt: string | undefined, line?: number): ReportRow {
  // The state's own variant (what went) wins over the list's (what would go now).
  if (state) {
    const row = {} as ReportRow;
    if (source) putSource(row, source);
    putState(row, state, repliedAt);
    putDelivery(row, state);
    return row;
  }
  const row = pendingRow(phone, line, repliedAt);
  if (source) putSource(row, source);
  return row;
}

function putState(row: ReportRow, s: ContactState, repliedAt: string | undefined): void {
  let notDone: string | undefined;
  for (const step in s.followups) {
    if (!Object.hasOwn(s.followups, step) || s.followups[step]) continue;
    notDone = notDone === undefined ? step : `${notDone};${step}`;
  }
  row.phone = s.phone;
  row.status = s.status;
  row.action = actionLabel(s);
  row.conversation_id = s.conversationId ?? null;
  row.client_id = s.clientId ?? null;
  row.message_id = s.status === 'sent' ? s.messageId : null;
  row.attempts = s.attempts;
  row.error = errorOf(s);
  if (repliedAt !== undefined) row.replied_at = repliedAt;
  if (s.line !== undefined) row.line = s.line;
  if (s.updatedAt !== undefined) row.updated_at = s.updatedAt;
  if (s.status === 'sent') row.sent_at = s.sentAt;
  if (s.status === 'sent' && s.mediaLeftOut !== undefined) row.media_left_out = s.mediaLeftOut;
  if (notDone !== undefined) row.followups_pending = notDone;
  if (s.status === 'failed') row.http_status = s.httpStatus;
  if (s.status === 'deferred') row.not_before = s.notBefore;
  if (s.variant !== undefined) row.variant = s.variant;
  if (s.channelId !== undefined) row.channel_id = s.channelId;
  // The provider's code and class behind a failure or a deferral; `other` for a failure without a code.
  const code = s.status === 'failed' || s.status === 'deferred' ? s.code : undefined;
  const cls = s.status === 'deferred' ? s.errorClass : failureClassOf(s);
  if (code !== undefined) row.error_code = code;
  if (cls !== undefined) row.error_class = cls;
}

function putSource(row: ReportRow, src: RowSource): void {
  if (src.name !== undefined) row.name = src.name;
  if (src.phoneAsWritten !== undefined) row.phone_as_written = src.phoneAsWritten;
  if (src.file !== undefined) row.source_file = src.file;
  if (src.line !== undefined) row.source_line = src.line;
  if (src.variant !== undefined) row.variant = src.variant;
  if (src.columns !== undefined) row.source_columns = src.columns;
}

function putDelivery(row: ReportRow, s: ContactState): void {
  if (s.status !== 'sent' || !s.delivery) return;
  const d = s.delivery;
  row.delivery_status = d.status;
  if (d.deliveredAt !== undefined) row.delivered_at = d.deliveredAt;
  if (d.readAt !== undefined) row.read_at = d.readAt;
  if (d.failureCode !== undefined) row.failure_code = d.failureCode;
}

/** Failed / in doubt: why. Sent: what went wrong in its follow-ups, if anything. Skipped: the action says why. */
function errorOf(s: ContactState): string | null {
  switch (s.status) {
    case 'failed':
      return s.error;
    case 'in_doubt':
      return s.unresolved !== undefined ? `${s.error}; reconcile: ${s.unresolved}` : s.error;
    case 'sent':
    case 'pending': {
      const errors = Object.entries(s.followupErrors ?? {}).map(([step, e]) => `${step}: ${e}`);
      return errors.length > 0 ? errors.join('; ') : null;
    }
    case 'skipped':
      return s.detail ?? null;
    case 'deferred':
      return null;
  }
}

function pendingRow(phone: string, line: number | undefined, repliedAt: string | undefined): ReportRow {
  return {
    phone,
    status: 'pending',
    action: '',
    conversation_id: null,
    client_id: null,
    message_id: null,
    attempts: 0,
    error: null,
    ...(repliedAt !== undefined && { replied_at: repliedAt }),
    ...(line !== undefined && { line }),
  };
}
