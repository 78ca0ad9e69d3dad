import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { htmlReportData } from '../../src/app/report/output.js';
import { ContactListing, createFileStore, statesOf, type ContactState } from '../../src/checkpoint/backends.js';
import { testJob } from '../helpers/run.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const base = { attempts: 1, followups: {} };
const states: ContactState[] = [
  { ...base, phone: '+1', status: 'sent', via: 'start', action: 'template', conversationId: '1', messageId: '1', sentAt: '2026-01-01T10:00:00.000Z', delivery: { status: 'failed', failureCode: 131050, failureReason: '(#131050) stopped' } },
  { ...base, phone: '+2', status: 'sent', via: 'start', action: 'template', conversationId: '2', messageId: '2', sentAt: '2026-01-01T10:00:30.000Z' },
  { ...base, phone: '+3', status: 'failed', via: 'start', action: 'template', httpStatus: 502, retryable: false, error: '502: (#131026) Message undeliverable.' },
  { ...base, phone: '+4', status: 'failed', via: 'start', action: 'template', httpStatus: 502, retryable: false, error: '502: (#131026) Message undeliverable.' },
  { ...base, phone: '+5', status: 'failed', via: 'start', action: 'template', httpStatus: 422, retryable: false, error: '422: bad phone' },
  { ...base, phone: '+6', status: 'deferred', reason: 'quiet_hours', notBefore: '2026-01-02T08:00:00.000Z' },
  { ...base, phone: '+7', status: 'skipped', reason: 'suppressed' },
  { ...base, phone: '+8', status: 'in_doubt', via: 'start', action: 'template', error: 'no answer', conversationId: '8', unresolved: 'the platform could not be read' },
];

async function data(rejects?: string) {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-html-'));
  const store = createFileStore(dir);
  const job = testJob({ rate: { per_second: 5, per_minute: 120, concurrency: 2 } });
  // On the suppression list: +7 (skipped for it) and +1 (131050 at delivery), and a phone of no contact of the job.
  await store.suppress([
    { phone: '+7', reason: 'by hand', source: 'manual' },
    { phone: '+1', reason: '131050 at delivery', source: 'provider' },
    { phone: '+99', reason: 'another list', source: 'import' },
  ]);
  if (rejects !== undefined) {
    await mkdir(path.dirname(store.jobFiles(job.name).rejects), { recursive: true });
    await writeFile(store.jobFiles(job.name).rejects, rejects);
  }
  const map = new Map(states.map((s) => [s.phone, s]));
  const report = {
    job,
    view: { header: undefined, states: statesOf(map), notices: [] },
    listing: new ContactListing(),
    listOnlyPending: 0,
    replies: new Map([['+2', '2026-01-01T12:00:00.000Z']]),
    headers: [],
  };
  return htmlReportData(report, store, Date.parse('2026-01-03T00:00:00.000Z'));
}

describe("report.html's numbers", () => {
  it('groups failures by stage, class and code, counts deferred and suppressed, and lists the contacts in doubt', async () => {
    const d = await data('file,line,raw_phone,reason,detail\na.csv,4,\'+55 abc,phone_invalid,not a number\na.csv,5,,phone_missing,the phone cell is empty\n');
    expect(d.failures).toEqual([
      { stage: 'send', className: 'undeliverable', code: 131026, label: 'the number cannot receive WhatsApp messages', count: 2, example: '502: (#131026) Message undeliverable.' },
      { stage: 'send', className: 'other', code: null, label: 'no provider code: see the error', count: 1, example: '422: bad phone' },
      { stage: 'delivery', className: 'opted_out', code: 131050, label: 'the person stopped marketing messages from this business', count: 1, example: '(#131050) stopped' },
    ]);
    expect(d.deferred).toEqual([{ reason: 'quiet_hours', count: 1 }]);
    expect(d.suppressed).toBe(2);
    expect(d.inDoubt).toEqual([{ phone: '+8', conversationId: '8', error: 'no answer; reconcile: the platform could not be read' }]);
    expect(d.funnel).toMatchObject({ sent: 2, tracked: 1, failed: 1, replied: 1 });
    expect(d.sends).toMatchObject({ per: 'second', limitPerBucket: 5, requestsPerBucket: 5, requestsPerSend: 1 });
    expect(d.replies.per).toBe('hour');
    expect(d.rejects).toEqual({
      total: 2,
      byReason: [
        { reason: 'phone_invalid', count: 1, examples: [{ line: '4', phone: '+55 abc', detail: 'not a number' }] },
        { reason: 'phone_missing', count: 1, examples: [{ line: '5', phone: '', detail: 'the phone cell is empty' }] },
      ],
    });
  });

  it('says so when there is no rejects file yet', async () => {
    expect((await data()).rejects).toEqual({ total: 0, byReason: [], problem: 'No rejects file yet: run `outreach plan` or `outreach run`.' });
  });
});
