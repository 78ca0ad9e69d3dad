import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { reportRows, writeReport, type ReportRow } from '../../src/report/index.js';
import { state, states, tempDir } from './helpers.js';

const A = '+5511900000001';
const B = '+5511900000002';
const C = '+5511900000003';
const D = '+5511900000004';
const E = '+5511900000005';

describe('reportRows', () => {
  it('makes one row per contact with status, action, ids and error', () => {
    const rows = reportRows(
      states(
        state(A, {
          action: 'template',
          conversationId: 'conv-1',
          clientId: 'client-1',
          messageId: 'msg-1',
          line: 2,
          updatedAt: '2025-01-01T00:00:02.000Z',
          sentAt: '2025-01-01T00:00:01.000Z',
          followups: { media: true },
        }),
        state(B, { status: 'failed', action: 'text', attempts: 2, error: 'invalid number', httpStatus: 400, clientId: 'client-2' }),
        state(C, { status: 'skipped', attempts: 0, reason: 'outside_window', line: 4 }),
        state(D, { status: 'in_doubt', action: 'template', error: 'socket hang up' }),
      ),
      { replies: new Map([[A, '2025-01-01T01:00:00.000Z']]) },
    );
    expect(rows).toEqual<ReportRow[]>([
      {
        phone: A,
        status: 'sent',
        action: 'template+media',
        conversation_id: 'conv-1',
        client_id: 'client-1',
        message_id: 'msg-1',
        attempts: 1,
        error: null,
        replied_at: '2025-01-01T01:00:00.000Z',
        line: 2,
        updated_at: '2025-01-01T00:00:02.000Z',
        sent_at: '2025-01-01T00:00:01.000Z',
      },
      {
        phone: B,
        status: 'failed',
        action: 'text',
        conversation_id: null,
        client_id: 'client-2',
        message_id: null,
        attempts: 2,
        error: 'invalid number',
        http_status: 400,
        error_class: 'other',
      },
      { phone: C, status: 'skipped', action: 'skip:outside_window', conversation_id: null, client_id: null, message_id: null, attempts: 0, error: null, line: 4 },
      { phone: D, status: 'in_doubt', action: 'template', conversation_id: null, client_id: null, message_id: null, attempts: 1, error: 'socket hang up', error_class: 'other' },
    ]);
  });

  it('lists follow-ups not done and their errors on a sent contact', () => {
    const [row] = reportRows(
      states(state(A, { action: 'text', followups: { media: false, 'tag:vip': true, custom_fields: false }, followupErrors: { media: 'upload failed' }, mediaLeftOut: false })),
    );
    expect(row).toMatchObject({ action: 'text+media', followups_pending: 'media;custom_fields', error: 'media: upload failed', media_left_out: false });
  });

  it('adds the list contacts the checkpoint has not seen as pending, each once', () => {
    const rows = reportRows(states(state(A, { action: 'text' })), {
      pendingPhones: [
        { phone: A, line: 2 },
        { phone: E, line: 9 },
        { phone: E, line: 9 },
      ],
    });
    expect(rows.map((r) => [r.phone, r.status])).toEqual([
      [A, 'sent'],
      [E, 'pending'],
    ]);
    expect(rows[1]).toEqual({ phone: E, status: 'pending', action: '', conversation_id: null, client_id: null, message_id: null, attempts: 0, error: null, line: 9 });
  });
});

describe('writeReport', () => {
  it('writes the CSV columns in exactly this order', async () => {
    const file = path.join(await tempDir(), 'report.csv');
    await writeReport(file, [], 'csv');
    const [header] = (await readFile(file, 'utf8')).split('\n');
    expect(header).toBe(
      'phone,status,action,conversation_id,client_id,message_id,attempts,error,replied_at,line,updated_at,sent_at,media_left_out,followups_pending,http_status,not_before,' +
        'error_code,error_class,name,phone_as_written,source_file,source_line,delivery_status,delivered_at,read_at,failure_code',
    );
    expect(header!.startsWith('phone,status,action,conversation_id,client_id,message_id,attempts,error,replied_at,line,updated_at')).toBe(true);
  });

  it('writes one CSV line per row, unknown values empty, text made formula-safe', async () => {
    const file = path.join(await tempDir(), 'report.csv');
    const rows = reportRows(
      states(
        state(A, { action: 'template', conversationId: 'c1', clientId: 'k1', messageId: 'm1', line: 2, mediaLeftOut: true }),
        state(B, { status: 'failed', action: 'text', error: '=HYPERLINK("http://evil")', httpStatus: 400 }),
        state(C, { status: 'failed', action: 'text', error: 'comma, "quote"\nnewline' }),
      ),
    );
    await writeReport(file, rows, 'csv');
    const records = parse(await readFile(file, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ phone: A, status: 'sent', action: 'template', conversation_id: 'c1', attempts: '1', error: '', line: '2', replied_at: '', media_left_out: 'true' });
    expect(records[1]).toMatchObject({ phone: B, error: `'=HYPERLINK("http://evil")`, http_status: '400' });
    expect(records[2]!.error).toBe('comma, "quote"\nnewline');
  });

  it('writes JSON as an array of the row objects', async () => {
    const file = path.join(await tempDir(), 'report.json');
    const rows = reportRows(states(state(A, { action: 'text' }), state(B, { status: 'failed', error: '=1' })));
    await writeReport(file, rows, 'json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(rows);

    await writeReport(file, [], 'json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([]);
  });

  it('streams 50,000 rows from a generator', async () => {
    const file = path.join(await tempDir(), 'report.csv');
    function* rows(): Generator<ReportRow> {
      for (let i = 0; i < 50_000; i++) {
        yield { phone: `+55119${String(i).padStart(8, '0')}`, status: 'sent', action: 'text', conversation_id: `c${i}`, client_id: null, message_id: null, attempts: 1, error: null };
      }
    }
    await writeReport(file, rows(), 'csv');
    const text = await readFile(file, 'utf8');
    expect(text.split('\n').filter((l) => l !== '')).toHaveLength(50_001);
    expect(text.split('\n')[50_000]).toBe('+5511900049999,sent,text,c49999,,,1,,,,,,,,,,,,,,,,,,,');
  });

  it('replaces the old report only once the new one is complete', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'report.csv');
    await writeReport(file, reportRows(states(state(A, { action: 'text' }))), 'csv');
    async function* failing(): AsyncGenerator<ReportRow> {
      yield reportRows(states(state(B)))[0]!;
      throw new Error('disk gone');
    }
    await expect(writeReport(file, failing(), 'csv')).rejects.toThrow('disk gone');
    expect(await readFile(file, 'utf8')).toContain(A);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(dir)).toEqual(['report.csv']);
  });
});
