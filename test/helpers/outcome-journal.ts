import type { CheckpointEvent } from '../../src/checkpoint/index.js';

export const OUTCOMES_AT = '2025-01-15T10:00:00.000Z';

export interface OutcomeJournalOptions {
  /** The platform's ids: numbers as text (`"100"`, the common case) or other text (`"conv-0"`). */
  ids?: 'numeric' | 'text';
  /** The failed contacts' error text. */
  failedError?: string;
}

/**
 * A journal of job `cli-test` with every kind of outcome, one contact per phone in list order, cycling
 * through eight: sent (plain; read; with a failed tag step; plain), failed undeliverable, deferred for
 * quiet hours, skipped opted out, and in doubt (an attempt with no answer).
 */
export function outcomeJournal(phones: readonly string[], options: OutcomeJournalOptions = {}): CheckpointEvent[] {
  const AT = OUTCOMES_AT;
  const text = options.ids === 'text';
  const error = options.failedError ?? '(#131026) undeliverable';
  const out: CheckpointEvent[] = [{ t: 'header', v: 1, job: 'cli-test', fingerprint: 'f', content: {}, at: AT }];
  phones.forEach((phone, i) => {
    const base = { phone, via: 'start', action: 'template' } as const;
    out.push({ t: 'attempt', ...base, line: i + 2, at: AT });
    const kind = i % 8;
    if (kind < 4) {
      const ids = text
        ? { conversation_id: `conv-${i}`, client_id: `client-${i}`, message_id: `m-${i}` }
        : { conversation_id: `${100 + i}`, client_id: `${500 + i}`, message_id: `${900 + i}` };
      out.push({ t: 'sent', ...base, ...ids, at: AT });
      if (kind === 1) out.push({ t: 'delivery', phone, status: 'read', delivered_at: AT, read_at: AT, at: AT });
      if (kind === 2) out.push({ t: 'followup', phone, step: 'tag:vip', ok: false, error: '404: tag not found', at: AT });
    } else if (kind === 4) out.push({ t: 'failed', ...base, status: 400, retryable: false, error, error_class: 'undeliverable', at: AT });
    else if (kind === 5) out.push({ t: 'deferred', phone, reason: 'quiet_hours', not_before: `2025-01-16T0${i % 9}:00:00.000Z`, zone: 'America/Sao_Paulo', at: AT });
    else if (kind === 6) out.push({ t: 'skipped', phone, reason: 'opted_out', at: AT });
  });
  return out;
}
