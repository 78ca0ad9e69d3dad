import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let c: Campaign;
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

describe('report --excel', () => {
  it('writes report.xlsx.csv and rejects.xlsx.csv (BOM, ";") beside report.csv and rejects.csv, which stay as they were', async () => {
    sim = await startSimulator({ seed: 2 });
    c = await campaign({ rows: 5, bad: 1 });
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBe(0);
    const dir = path.join(c.stateDir, 'cli-test');
    const before = await readFile(path.join(dir, 'report.csv'), 'utf8');
    const rejectsBefore = await readFile(path.join(dir, 'rejects.csv'), 'utf8');

    const r = await cli(['report', c.jobFile, '--excel'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `report of cli-test: 5 contacts written to ${path.join(dir, 'report.xlsx.csv')}\n` + `rejects of cli-test: 1 row written to ${path.join(dir, 'rejects.xlsx.csv')}\n`,
    );
    expect(await readFile(path.join(dir, 'report.csv'), 'utf8')).toBe(before);
    expect(await readFile(path.join(dir, 'rejects.csv'), 'utf8')).toBe(rejectsBefore);
    const excel = await readFile(path.join(dir, 'report.xlsx.csv'), 'utf8');
    expect(excel.startsWith('\uFEFFphone;status;action;')).toBe(true);
    const rejects = await readFile(path.join(dir, 'rejects.xlsx.csv'), 'utf8');
    expect(rejects.startsWith('\uFEFFfile;line;raw_phone;reason;detail;')).toBe(true);
    expect(rejects).toContain(';phone_invalid;');

    // Phones and ids open as text, not as 5,5512E+12: the cells a spreadsheet would turn into numbers.
    const [head = '', first = ''] = excel.replace(/^\uFEFF/, '').split('\n');
    const row = Object.fromEntries(head.split(';').map((h, i) => [h, first.split(';')[i]]));
    expect(row.phone).toBe(`"=""${c.phones[0]}"""`);
    expect(row.conversation_id).toMatch(/^"=""\d+"""$/);
    expect(row.message_id).toMatch(/^"=""\d+"""$/);
    expect(rejects).toContain(';"=""120""";');
    expect(before).toContain(`\n${c.phones[0]},sent,`);

    const named = await cli(['report', c.jobFile, '--excel', '--out', path.join(c.dir, 'mine.csv')], env);
    expect(named.stdout).toContain(`written to ${path.join(c.dir, 'mine.csv')}\n`);
    expect((await readFile(path.join(c.dir, 'mine.csv'), 'utf8')).startsWith('\uFEFF')).toBe(true);
  });
});
