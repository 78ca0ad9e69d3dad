import type { ContactState, ContactStatus } from '../checkpoint/types.js';
import { actionLabel } from './action-label.js';

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
}

export interface ReportExtra {
  /** ISO time of each phone's reply. */
  replies?: ReadonlyMap<string, string>;
  /** Contacts of the list the checkpoint has not seen yet: reported as `pending`. */
  pendingPhones?: Iterable<{ phone: string; line?: number }>;
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
  for (const s of states.values()) yield rowOf(s, extra.replies?.get(s.phone));
  const seen = new Set<string>();
  for (const p of extra.pendingPhones ?? []) {
    if (states.has(p.phone) || seen.has(p.phone)) continue;
    seen.add(p.phone);
    yield pendingRow(p.phone, p.line, extra.replies?.get(p.phone));
  }
}

function rowOf(s: ContactState, repliedAt: string | undefined): ReportRow {
  const notDone = Object.keys(s.followups).filter((step) => !s.followups[step]);
  return {
    phone: s.phone,
    status: s.status,
    action: actionLabel(s),
    conversation_id: s.conversationId ?? null,
    client_id: s.clientId ?? null,
    message_id: s.status === 'sent' ? s.messageId : null,
    attempts: s.attempts,
    error: errorOf(s),
    ...(repliedAt !== undefined && { replied_at: repliedAt }),
    ...(s.line !== undefined && { line: s.line }),
    ...(s.updatedAt !== undefined && { updated_at: s.updatedAt }),
    ...(s.status === 'sent' && { sent_at: s.sentAt }),
    ...(s.status === 'sent' && s.mediaLeftOut !== undefined && { media_left_out: s.mediaLeftOut }),
    ...(notDone.length > 0 && { followups_pending: notDone.join(';') }),
    ...(s.status === 'failed' && { http_status: s.httpStatus }),
    ...(s.status === 'deferred' && { not_before: s.notBefore }),
  };
}

/** Failed / in doubt: why. Sent: what went wrong in its follow-ups, if anything. Skipped: the action says why. */
function errorOf(s: ContactState): string | null {
  switch (s.status) {
    case 'failed':
    case 'in_doubt':
      return s.error;
    case 'sent':
    case 'pending': {
      const errors = Object.entries(s.followupErrors ?? {}).map(([step, e]) => `${step}: ${e}`);
      return errors.length > 0 ? errors.join('; ') : null;
    }
    case 'skipped':
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
