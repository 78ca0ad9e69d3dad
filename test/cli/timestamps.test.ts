import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { consoleLogger, flushLogger } from '../../src/cli/logger.js';
import { stamped } from '../../src/cli/stamp.js';
import { cli } from '../helpers/in-process.js';
import { bench, phone, type Bench } from '../compliance/helpers.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

/** Every line of `text` that has something on it. */
function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

describe('without a terminal, each line outreach writes starts with an ISO timestamp', () => {
  it('every line of a run\'s end, not only its first', async () => {
    const job = await b.job('stamps', [{ phone: phone(1, 9) }, { phone: phone(2, 9) }]);
    const r = await cli(['run', job, '--state-dir', b.stateDir, '--no-progress'], { env: { OUTREACH_BASE_URL: b.sim.url, OUTREACH_TOKEN: b.sim.token } });
    expect(r.code).toBe(0);
    expect(lines(r.stdout).length).toBeGreaterThan(5);
    for (const line of [...lines(r.stdout), ...lines(r.stderr)]) expect(line).toMatch(ISO);
  });

  it('every line of an error of several lines', async () => {
    const job = await b.job('offline', [{ phone: phone(3, 9) }]);
    const r = await cli(['plan', job, '--offline', '--state-dir', b.stateDir]);
    expect(r.code).toBe(2);
    expect(lines(r.stderr).length).toBeGreaterThan(1);
    for (const line of lines(r.stderr)) expect(line).toMatch(ISO);
  });

  it('every line of a long-lived command\'s log record, and none on a terminal', async () => {
    const err = Object.assign(new PassThrough(), { isTTY: false });
    let text = '';
    err.on('data', (d: Buffer) => (text += d.toString()));
    const logger = consoleLogger({ err });
    logger.warn('first line\nsecond line');
    await flushLogger(logger);
    expect(lines(text)).toHaveLength(2);
    for (const line of lines(text)) expect(line).toMatch(ISO);
    expect(stamped('a\nb\n', true)).toBe('a\nb\n');
    expect(stamped('a\n\nb\n', false, () => 0)).toBe('1970-01-01T00:00:00.000Z a\n\n1970-01-01T00:00:00.000Z b\n');
  });
});
