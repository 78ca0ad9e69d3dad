import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reportCsvFor, reportRowsFor } from '../../src/app/report/job-report.js';
import { applyEvent, ContactListing, StateTable, type CheckpointEvent } from '../../src/checkpoint/index.js';
import { writeFileAtomic } from '../../src/files/atomic.js';
import { writeReport } from '../../src/report/index.js';
import { tempDir } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/report/', import.meta.url));
const AT = '2025-03-01T12:00:00.000Z';

/** A job of every kind of row: each status, ids, follow-ups, deliveries, tricky names (commas, quotes, newlines, formulas, accents), pending contacts. */
function sample(): { states: StateTable; listing: ContactListing; replies: Map<string, string> } {
  const states = new StateTable();
  const listing = new ContactListing();
  const names = ['Ana', 'Silva, João', 'O"Brien', 'line\nbreak', '=SUM(A1)', '+55 nope', '-x', '@me', 'Zoë; ünï', 'tab\there', 'cr\rhere', ''];
  const phone = (i: number) => `+55119${String(70_000_000 + i).padStart(8, '0')}`;
  const ev: CheckpointEvent[] = [];
  for (let i = 0; i < 60; i++) {
    const p = phone(i);
    const at = new Date(Date.parse(AT) + i * 1000).toISOString();
    listing.add({ phone: p, line: i + 2, file: i % 2 ? '/lists/a.csv' : '/lists/b;c.csv', name: names[i % names.length] ?? '', ...(i % 3 ? { phoneAsWritten: `(11) 9${i}` } : {}) });
    if (i >= 50) continue;
    ev.push({ t: 'attempt', phone: p, via: 'start', action: i % 7 === 0 ? 'text' : 'template', line: i + 2, at });
    switch (i % 6) {
      case 0:
        ev.push({ t: 'sent', phone: p, via: 'start', action: 'text', conversation_id: String(100 + i), client_id: String(500 + i), message_id: `m-${i}`, media_left_out: i % 4 === 0, at });
        ev.push({ t: 'followup', phone: p, step: 'tag:vip', ok: false, error: 'tag "vip", not found', at });
        break;
      case 1:
        ev.push({ t: 'sent', phone: p, via: 'start', action: 'template', conversation_id: String(100 + i), client_id: String(500 + i), message_id: String(900 + i), at });
        ev.push({ t: 'delivery', phone: p, status: i % 4 === 1 ? 'read' : 'failed', delivered_at: at, ...(i % 4 === 1 ? { read_at: at } : { failure_code: 131026, failure_reason: 'undeliverable' }), at });
        break;
      case 2:
        ev.push({ t: 'failed', phone: p, via: 'start', action: 'template', status: 400, retryable: false, error: '(#131026) "undeliverable",\nsee', code: 131026, error_class: 'undeliverable', at });
        break;
      case 3:
        ev.push({ t: 'deferred', phone: p, reason: 'quiet_hours', not_before: '2025-03-02T08:00:00.000Z', zone: 'America/Sao_Paulo', at });
        break;
      case 4:
        ev.push({ t: 'skipped', phone: p, reason: 'opted_out', at });
        break;
      default:
        break; // in doubt: no outcome
    }
  }
  for (const e of ev) if (e.t !== 'header') applyEvent(states, e);
  // A contact the list no longer has.
  applyEvent(states, { t: 'skipped', phone: '+5511900000001', reason: 'suppressed', at: AT });
  const replies = new Map([[phone(1), '2025-03-01T13:00:00.000Z']]);
  return { states, listing, replies };
}

describe('report.csv', () => {
  for (const [name, layout] of [
    ['report.csv', {}],
    ['report-excel.csv', { excel: true, variants: true }],
  ] as const) {
    it(`is byte for byte what it was for a sample job of every kind of row (${name})`, async () => {
      const { states, listing, replies } = sample();
      const file = path.join(await tempDir(), name);
      await writeReport(file, reportRowsFor(states, listing, replies), 'csv', layout);
      const written = await readFile(file);
      if (process.env.WRITE_REPORT_FIXTURES) await writeFile(path.join(FIXTURES, name), written);
      expect(written.equals(await readFile(path.join(FIXTURES, name)))).toBe(true);
    });

    // The spreadsheet form writes its phones and ids as text formulas, the general way only: no fast path to compare.
    if (layout.excel === true) continue;
    it(`is the same bytes written from the state table's columns (${name})`, async () => {
      const { states, listing, replies } = sample();
      const file = path.join(await tempDir(), name);
      await writeFileAtomic(file, reportCsvFor(StateTable.fromImage(states.image()), listing, replies, layout) ?? []);
      expect((await readFile(file)).equals(await readFile(path.join(FIXTURES, name)))).toBe(true);
    });
  }
});
