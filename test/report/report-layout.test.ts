import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport, reportRows, writeReport, type HtmlReportData } from '../../src/report/index.js';
import { state, states, tempDir } from './helpers.js';

const A = '+5511900000001';
const B = '+5511900000002';

describe('report rows after track', () => {
  it('carries the row it came from and what track read', () => {
    const rows = reportRows(
      states(
        state(A, { conversationId: '1', messageId: '2', sentAt: 'x', delivery: { status: 'failed', failedAt: 'f', failureCode: 131026, failureReason: '(#131026) x' } }),
        state(B, { status: 'in_doubt', action: 'template', error: 'no answer', unresolved: 'the platform could not be read' }),
      ),
      { sources: new Map([[A, { file: 'a.csv', line: 7, name: 'Ana', phoneAsWritten: '(11) 90000-0001', variant: 'mx' }]]) },
    );
    expect(rows[0]).toMatchObject({ name: 'Ana', phone_as_written: '(11) 90000-0001', source_file: 'a.csv', source_line: 7, variant: 'mx', delivery_status: 'failed', failure_code: 131026 });
    expect(rows[1]).toMatchObject({ error: 'no answer; reconcile: the platform could not be read' });
    expect(rows[1]).not.toHaveProperty('delivery_status');
  });
});

describe('report.csv layouts', () => {
  const rows = [
    { phone: A, status: 'sent' as const, action: 'template', conversation_id: '1', client_id: '2', message_id: '3', attempts: 1, error: null, name: '=1+2', variant: 'default', source_columns: { status: 'vip', Nome: '@Ana;Maria' } },
  ];

  it('for Excel: UTF-8 with a BOM, ";" between cells, every text cell still formula-safe', async () => {
    const file = path.join(await tempDir(), 'r.csv');
    await writeReport(file, rows, 'csv', { excel: true, sourceColumns: ['status', 'Nome'] });
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\n')[0]).toMatch(/^\uFEFFphone;status;action;/);
    const [row] = parse(text, { columns: true, bom: true, delimiter: ';' }) as Array<Record<string, string>>;
    // Phones and ids as text formulas: a spreadsheet opens them as text, not as 5,5512E+12.
    expect(row).toMatchObject({ phone: `="${A}"`, conversation_id: '="1"', name: "'=1+2", 'source:status': 'vip', Nome: "'@Ana;Maria" });
    expect(row).not.toHaveProperty('variant');
  });

  it('has the variant column only for a job with variants, and commas otherwise', async () => {
    const file = path.join(await tempDir(), 'r.csv');
    await writeReport(file, rows, 'csv', { variants: true });
    const text = await readFile(file, 'utf8');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const header = text.split('\n')[0]!.split(',');
    expect(header.slice(-9)).toEqual(['name', 'phone_as_written', 'source_file', 'source_line', 'variant', 'delivery_status', 'delivered_at', 'read_at', 'failure_code']);
    expect(header.indexOf('name')).toBe(header.indexOf('error_class') + 1);
  });
});

describe('report.html', () => {
  const data: HtmlReportData = {
    job: 'bf<2026>',
    generatedAt: '2026-11-27T10:00:00.000Z',
    zone: 'America/Sao_Paulo',
    total: 3,
    byStatus: { sent: 2, failed: 0, in_doubt: 1, skipped: 0, deferred: 0, pending: 0 },
    funnel: { sent: 2, delivered: 1, read: 1, replied: 0, failed: 1, tracked: 2 },
    sends: { buckets: [{ start: '2026-11-27T09:00:00.000Z', count: 2 }], per: 'minute', limitPerBucket: 300, requestsPerBucket: 600, requestsPerSend: 2 },
    rejects: { total: 1, byReason: [{ reason: 'phone_invalid', count: 1, examples: [{ line: '4', phone: '<img src=x onerror=alert(1)>', detail: 'too short' }] }] },
    failures: [{ stage: 'delivery', className: 'undeliverable', code: 131026, label: 'the number cannot receive WhatsApp messages', count: 1, example: '(#131026) <b>x</b>' }],
    deferred: [],
    suppressed: 0,
    replies: { buckets: [], per: 'hour' },
    inDoubt: [{ phone: B, line: 3, conversationId: '77', error: 'no answer' }],
    inDoubtMore: 4,
  };

  it('is one page with no script and nothing to fetch, every text escaped', () => {
    const html = renderHtmlReport(data);
    expect(html).not.toMatch(/<script|<link|src="http|url\(/i);
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'");
    expect(html).toContain('bf&lt;2026&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('(#131026) &lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('<code data-conversation>77</code>');
    expect(html).toContain('4 more are in report.csv');
    expect(html).toContain('No replies yet.');
    expect(html).toMatch(/data-funnel="delivered">1</);
  });
});
