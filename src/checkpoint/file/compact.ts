import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../../files/atomic.js';
import { MARKETING_LIMIT_REASON } from '../apply-event.js';
import { replay } from '../replay.js';
import { readJournal } from './read-journal.js';
import { deliveryEvent } from '../delivery-codec.js';
import type { ContactEvent, ContactState, FollowupStep, RequestContent } from '../types.js';

export interface CompactionResult {
  eventsBefore: number;
  eventsAfter: number;
  contacts: number;
  /** Unreadable lines of the old file, not carried over. */
  tornLinesDropped: number;
  /** Contacts whose state no short sequence reproduces: their original events were kept. */
  keptVerbatim: number;
}

/** The run's rule of thumb: compact when the journal holds over 5 events per contact. */
export function shouldCompact(events: number, contacts: number, ratio = 5): boolean {
  return events > ratio * contacts;
}

/**
 * Rewrites the journal as its header plus a short synthetic event sequence per contact that
 * replays to the very same state. Written by the one atomic writer (`files/atomic.ts`): a temporary
 * file, fsync'd, read back and checked against the old replay, then renamed over the journal (and the
 * folder fsync'd): a crash at any moment leaves either the old journal or the new one. The caller
 * holds the job lock and has no journal open on the file.
 */
export async function compactJournal(file: string): Promise<CompactionResult> {
  const contents = await readJournal(file);
  const before = replay(contents.events);
  const original = groupByPhone(contents.events);

  const lines: string[] = [];
  if (contents.header) lines.push(JSON.stringify(contents.header));
  let eventsAfter = 0;
  let keptVerbatim = 0;
  for (const [phone, state] of before) {
    let events = withContent(synthesize(state), original.get(phone));
    if (!isDeepStrictEqual(replay(events).get(phone), state)) {
      events = original.get(phone) ?? [];
      keptVerbatim += 1;
    }
    for (const e of events) lines.push(JSON.stringify(e));
    eventsAfter += events.length;
  }

  await writeFileAtomic(file, inChunks(lines), {
    check: async (temp) => {
      const check = await readJournal(temp);
      if (
        check.tornLines > 0 ||
        !isDeepStrictEqual(check.header, contents.header) ||
        !isDeepStrictEqual(replay(check.events), before)
      ) {
        throw new Error(`compacting ${file} would change its state; the journal was left as it was`);
      }
    },
  });

  return {
    eventsBefore: contents.events.length,
    eventsAfter,
    contacts: before.size,
    tornLinesDropped: contents.tornLines,
    keptVerbatim,
  };
}

/** The shortest usual sequence reaching `s`; the caller checks it and falls back when it does not. */
function synthesize(s: ContactState): ContactEvent[] {
  const { phone } = s;
  const at = s.updatedAt ?? '';
  const via = s.via ?? 'start';
  const action = s.action ?? 'template';
  const ids = {
    ...(s.conversationId !== undefined && { conversation_id: s.conversationId }),
    ...(s.clientId !== undefined && { client_id: s.clientId }),
  };
  const line = s.line !== undefined ? { line: s.line } : {};
  const out: ContactEvent[] = [];

  // A sent contact: `sent` first (at sentAt), then its attempts, which no longer change the status,
  // so the last event can carry updatedAt. Others: attempts first, the outcome last.
  const attempts = (when: string): void => {
    const variant = s.status !== 'sent' && s.variant !== undefined ? { variant: s.variant } : {};
    const channel = s.status !== 'sent' && s.channelId !== undefined ? { channel_id: s.channelId } : {};
    for (let i = 0; i < s.attempts; i++) out.push({ t: 'attempt', phone, via, action, at: when, ...(i === 0 && line), ...variant, ...channel });
  };
  // Ids and the action of an earlier attempt ride on a failed event that a skip or a deferral then covers.
  const earlier = (): void => {
    if (s.via !== undefined) out.push({ t: 'failed', phone, via, action, status: 0, retryable: false, ...ids, error: '', at });
  };
  // Earlier marketing-limit deferrals are counted; the state's own last one is its final event below.
  const own = s.status === 'deferred' && s.reason === MARKETING_LIMIT_REASON ? 1 : 0;
  for (let i = own; i < (s.marketingLimits ?? 0); i++) {
    out.push({ t: 'deferred', phone, reason: MARKETING_LIMIT_REASON, not_before: at, at });
  }
  if (s.status !== 'sent') attempts(s.status === 'in_doubt' && s.attemptAt !== undefined ? s.attemptAt : at);
  switch (s.status) {
    case 'pending':
      // Pending after `reconcile` found no message: the attempts, then the reconciled verdict with the ids.
      if (s.attempts > 0 || s.via !== undefined) {
        if (s.attempts === 0) out.push({ t: 'in_doubt', phone, via, action, error: '', at });
        out.push({ t: 'reconciled', phone, result: 'not_sent', ...ids, at });
      }
      break;
    case 'sent':
      if (s.source === 'reconciled') {
        const { conversationId, messageId, sentAt } = s;
        out.push({ t: 'reconciled', phone, result: 'sent', via: s.via, action: s.action, conversation_id: conversationId, ...(s.clientId !== undefined && { client_id: s.clientId }), message_id: messageId, sent_at: sentAt, at: sentAt });
      } else {
        out.push({
          t: 'sent',
          phone,
          via: s.via,
          action: s.action,
          conversation_id: s.conversationId,
          ...(s.clientId !== undefined && { client_id: s.clientId }),
          message_id: s.messageId,
          ...(s.mediaLeftOut !== undefined && { media_left_out: s.mediaLeftOut }),
          ...(s.mediaOwed !== undefined && { media_owed: s.mediaOwed }),
          ...(s.variant !== undefined && { variant: s.variant }),
          ...(s.channelId !== undefined && { channel_id: s.channelId }),
          at: s.sentAt,
        });
      }
      attempts(at);
      break;
    case 'failed':
      out.push({ t: 'failed', phone, via: s.via, action: s.action, status: s.httpStatus, retryable: s.retryable, ...ids, error: s.error, ...refusal(s), at });
      break;
    case 'in_doubt':
      // An in-doubt outcome whose attempt time is unknown (no attempt before it): the attempts' own doubt is closed first.
      if (s.attemptAt === undefined && s.attempts > 0) earlier();
      out.push({ t: 'in_doubt', phone, via: s.via, action: s.action, ...ids, error: s.error, at });
      if (s.unresolved !== undefined) out.push({ t: 'reconciled', phone, result: 'in_doubt', reason: s.unresolved, at });
      break;
    case 'skipped':
      earlier();
      out.push({ t: 'skipped', phone, reason: s.reason, ...line, at });
      break;
    case 'deferred':
      earlier();
      out.push({ t: 'deferred', phone, reason: s.reason, not_before: s.notBefore, ...line, ...refusal(s), at });
      break;
  }
  for (const [step, ok] of Object.entries(s.followups)) {
    const error = s.followupErrors?.[step];
    const inDoubt = s.followupsInDoubt?.[step] === true;
    out.push({ t: 'followup', phone, step: step as FollowupStep, ok, ...(inDoubt && { in_doubt: true }), ...(error !== undefined && { error }), at });
  }
  // One `delivery` event carrying the whole picture (the fold of a single read is the facts themselves).
  if (s.status === 'sent' && s.delivery) out.push(deliveryEvent(phone, s.delivery, at));
  return out;
}

/**
 * The synthetic events with the content of the contact's last request (what `show` prints as sent)
 * on their last attempt: the state does not hold it, the journal's attempts do.
 */
function withContent(events: ContactEvent[], original: readonly ContactEvent[] | undefined): ContactEvent[] {
  let content: RequestContent | undefined;
  for (const e of original ?? []) if (e.t === 'attempt' && e.content !== undefined) content = e.content;
  const last = events.findLastIndex((e) => e.t === 'attempt');
  const attempt = events[last];
  if (content === undefined || attempt?.t !== 'attempt') return events;
  const out = [...events];
  out[last] = { ...attempt, content };
  return out;
}

function refusal(s: { code?: number; errorClass?: string }) {
  return { ...(s.code !== undefined && { code: s.code }), ...(s.errorClass !== undefined && { error_class: s.errorClass }) };
}

function groupByPhone(events: readonly ContactEvent[]): Map<string, ContactEvent[]> {
  const byPhone = new Map<string, ContactEvent[]>();
  for (const e of events) {
    const list = byPhone.get(e.phone);
    if (list) list.push(e);
    else byPhone.set(e.phone, [e]);
  }
  return byPhone;
}

/** The journal's lines, 2,000 to a write. */
function* inChunks(lines: readonly string[]): Generator<string> {
  const chunk = 2000;
  for (let i = 0; i < lines.length; i += chunk) yield lines.slice(i, i + chunk).join('\n') + '\n';
}
