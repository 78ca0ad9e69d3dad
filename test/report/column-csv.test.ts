import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportCsvFor, reportRowsFor } from '../../src/app/report/job-report.js';
import { applyEvent, ContactListing, StateTable, type CheckpointEvent } from '../../src/checkpoint/index.js';
import { writeFileAtomic } from '../../src/files/atomic.js';
import { writeReport, type ReportLayout, type ReportRow } from '../../src/report/index.js';
import { tempDir } from './helpers.js';

const AT = Date.parse('2025-03-01T23:59:58.000Z');
const phone = (i: number) => `+55119${String(70_000_000 + i).padStart(8, '0')}`;
const at = (i: number) => new Date(AT + i * 997).toISOString();

/**
 * A job of every kind of outcome, several contacts of each (their ids, times and lines differ): sent
 * (ids plain numbers or not, media left out, a variant, a pool's number, delivered, read, failed on
 * delivery, an after-send step failed or done), failed of each class (and with no code, no answer),
 * in doubt (and reconciled in doubt), reconciled as not sent, skipped, deferred (quiet hours, by the
 * provider), pending; names needing quotes or the formula guard; a contact the list no longer has, one
 * whose phone is kept whole, one deleted, and the last ones set not yet encoded in the columns.
 */
function job(): { states: StateTable; listing: ContactListing; replies: Map<string, string> } {
  const listing = new ContactListing();
  const names = ['Ana', 'Silva, João', 'O"Brien', 'line\nbreak', '=SUM(A1)', '+55 nope', '-x', '@me', 'Zoë; ünï', 'tab\there', 'cr\rhere', ''];
  const events: CheckpointEvent[] = [];
  const kinds = 24;
  const contacts = kinds * 5;
  for (let i = 0; i < contacts + 10; i++) {
    const p = phone(i);
    listing.add({ phone: p, line: i + 2, file: i % 2 ? '/lists/a.csv' : '/lists/b;c "x".csv', name: names[i % names.length] ?? '', ...(i % 3 ? { phoneAsWritten: i % 3 === 1 ? `(11) 9${i}` : i % 4 === 0 ? '+55 11 9' : i % 4 === 1 ? '+' : p } : {}), ...(i % 5 === 0 && { variant: i % 10 ? 'B' : 'default' }) });
  }
  for (let i = 0; i < contacts; i++) {
    const p = phone(i);
    const t = at(i);
    const ids = { conversation_id: String(100 + i), client_id: String(5_000_000_000_000 + i * 7) };
    const kind = i % kinds;
    events.push({ t: 'attempt', phone: p, via: 'start', action: i % 7 === 0 ? 'text' : 'template', line: i + 2, ...(kind === 3 && { variant: 'B' }), ...(kind === 4 && { channel_id: 10 + (i % 3) }), at: t });
    const sent = (more: Partial<Extract<CheckpointEvent, { t: 'sent' }>> = {}): CheckpointEvent => ({ t: 'sent', phone: p, via: 'start', action: 'template', ...ids, message_id: String(900 + i), at: t, ...more });
    const failed = (more: Partial<Extract<CheckpointEvent, { t: 'failed' }>>): CheckpointEvent => ({ t: 'failed', phone: p, via: 'start', action: 'template', status: 400, retryable: false, error: `(#${i}) refused`, at: t, ...more });
    switch (kind) {
      case 0:
        events.push(sent({ message_id: String(100_000_000 + i) }));
        break;
      case 1:
        events.push(sent({ message_id: `wamid.${i}`, conversation_id: `c-${i}`, media_left_out: true, media_owed: i % 2 === 0 }));
        break;
      case 2:
        events.push(sent({ action: 'text' }), { t: 'followup', phone: p, step: 'tag:vip', ok: false, error: 'tag "vip", not found', at: t });
        break;
      case 3:
        events.push(sent({ variant: 'B' }), { t: 'followup', phone: p, step: 'custom_fields', ok: true, at: t });
        break;
      case 4:
        events.push(sent({ channel_id: 10 + (i % 3) }));
        break;
      case 5:
        events.push(sent(), { t: 'delivery', phone: p, status: 'read', delivered_at: t, read_at: at(i + 5000), at: t });
        break;
      case 6:
        events.push(sent(), { t: 'delivery', phone: p, status: 'delivered', delivered_at: at(i + 90_000), at: t });
        break;
      case 7:
        events.push(sent(), { t: 'delivery', phone: p, status: 'failed', failed_at: t, failure_code: 131026, failure_reason: 'undeliverable', at: t });
        break;
      case 8:
        events.push(failed({ code: 131026, error_class: 'undeliverable', error: '(#131026) "undeliverable",\nsee' }));
        break;
      case 9:
        events.push(failed({ code: 131050, error_class: 'opted_out', ...ids }));
        break;
      case 10:
        events.push(failed({ status: 429, retryable: true, code: 131056, error_class: 'pair_rate' }));
        break;
      case 11:
        events.push(failed({ status: 500 }));
        break;
      case 12:
        events.push(failed({ status: 0, retryable: true, error: '=no answer' }));
        break;
      case 13:
        break; // in doubt: no outcome
      case 14:
        events.push({ t: 'in_doubt', phone: p, via: 'start', action: 'template', ...ids, error: 'timeout', at: t }, { t: 'reconciled', phone: p, result: 'in_doubt', reason: 'two messages found', at: t });
        break;
      case 15:
        events.push({ t: 'reconciled', phone: p, result: 'not_sent', at: t });
        break;
      case 16:
        events.push({ t: 'reconciled', phone: p, result: 'sent', via: 'start', action: 'template', ...ids, message_id: String(700 + i), sent_at: at(i - 30), at: t });
        break;
      case 17:
        events.push({ t: 'skipped', phone: p, reason: 'opted_out', line: i + 2, at: t });
        break;
      case 18:
        events.push({ t: 'skipped', phone: p, reason: 'suppressed', at: t });
        break;
      case 19:
        events.push({ t: 'deferred', phone: p, reason: 'quiet_hours', not_before: at(i + 30_000), zone: 'America/Sao_Paulo', at: t });
        break;
      case 20:
        events.push({ t: 'deferred', phone: p, reason: 'provider', not_before: at(i + 60_000), code: 131049, error_class: 'marketing_limit', at: t });
        break;
      case 21:
        events.push(sent({ channel_id: 11 }), { t: 'followup', phone: p, step: 'media', ok: false, error: 'media refused', at: t });
        break;
      default:
        events.push(sent({ media_left_out: false }));
        break;
    }
  }
  const first = new StateTable();
  for (const e of events) if (e.t !== 'header') applyEvent(first, e);
  applyEvent(first, { t: 'skipped', phone: '+5511900000001', reason: 'suppressed', at: at(0) });
  // As a snapshot gives it back: every row in the columns.
  const states = StateTable.fromImage(first.image());
  // Then a few set since (not encoded yet), one deleted, one kept whole, one found out of the list's order.
  applyEvent(states, { t: 'delivery', phone: phone(0), status: 'delivered', delivered_at: at(3), at: at(3) });
  applyEvent(states, { t: 'failed', phone: phone(13), via: 'start', action: 'template', status: 400, retryable: false, error: 'late', at: at(4) });
  states.delete(phone(22));
  applyEvent(states, { t: 'skipped', phone: 'not-a-phone', reason: 'invalid', at: at(5) });
  applyEvent(states, { t: 'skipped', phone: phone(contacts + 5), reason: 'opted_out', at: at(6) });
  const replies = new Map([
    [phone(5), at(10)],
    [phone(29), at(11)],
    [phone(contacts + 7), at(12)],
  ]);
  return { states, listing, replies };
}

const armOf = (p: string): string | undefined => (p.endsWith('1') ? 'b' : p.endsWith('2') ? undefined : 'a');

async function* withArm(rows: Iterable<ReportRow>): AsyncGenerator<ReportRow> {
  for (const row of rows) {
    const arm = armOf(row.phone);
    yield arm === undefined ? row : { ...row, arm };
  }
}

describe("report.csv written from the state table's columns", () => {
  for (const [name, layout] of [
    ['plain', {}],
    ['variants, a pool', { variants: true, numbers: true }],
    ['an experiment', { variants: true, arms: true, numbers: true }],
  ] as const satisfies ReadonlyArray<readonly [string, ReportLayout]>) {
    it(`gives byte for byte the rows the general way for a job of every kind of outcome (${name})`, async () => {
      const { states, listing, replies } = job();
      const dir = await tempDir();
      const general = path.join(dir, 'general.csv');
      const rows = reportRowsFor(states, listing, replies);
      await writeReport(general, 'arms' in layout ? withArm(rows) : rows, 'csv', layout);
      let counted = 0;
      const text = reportCsvFor(states, listing, replies, layout, { count: () => (counted += 1), ...('arms' in layout && { armOf }) });
      expect(text).toBeDefined();
      const fast = path.join(dir, 'fast.csv');
      await writeFileAtomic(fast, text ?? []);
      const want = await readFile(general, 'utf8');
      expect(await readFile(fast, 'utf8')).toBe(want);
      expect(counted).toBe(want.split('\n').filter((l) => /^(\uFEFF)?\+|^not-a-phone/.test(l)).length);
    });
  }
});
