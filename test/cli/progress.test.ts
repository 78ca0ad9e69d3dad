import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { createProgress } from '../../src/cli/progress.js';
import type { RunStats } from '../../src/run/index.js';

function stats(n: number): RunStats {
  return { seen: n, sent: n, failed: 1_000, inDoubt: 999, skipped: 0, deferred: 0, rejected: 0, untouched: 0, interrupted: 0, warnings: 0, contactFacts: 0, providerDeferred: 0 };
}

/** A terminal 80 columns wide that keeps what is drawn on it. */
function terminal(): NodeJS.WriteStream & { drawn: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { drawn: () => string };
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  Object.assign(stream, { isTTY: true, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true, drawn: () => text });
  return stream;
}

describe('the progress bar', () => {
  it('fits 80 columns at a million contacts, and is cleared before the summary prints', async () => {
    const stream = terminal();
    const progress = createProgress({ total: 1_000_000, tty: true, enabled: true, logger: pino({ level: 'silent' }), stream });
    progress.update(stats(999_999));
    await new Promise((r) => setTimeout(r, 250));
    progress.update(stats(1_000_000));
    progress.stop();
    // eslint-disable-next-line no-control-regex
    const lines = stream.drawn().replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '\n').split(/[\r\n]/).filter((l) => l.trim() !== '');
    expect(lines.some((l) => l.includes('1000000/1000000'))).toBe(true);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('raises an estimated total that the list turns out to pass', async () => {
    const stream = terminal();
    const progress = createProgress({ total: 900, tty: true, enabled: true, logger: pino({ level: 'silent' }), stream });
    progress.update(stats(1_000));
    await new Promise((r) => setTimeout(r, 250));
    progress.stop();
    expect(stream.drawn()).toContain('1000/1000');
    expect(stream.drawn()).not.toContain('1000/900');
  });

  it('logs a last line at the end when there is no terminal', () => {
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    const progress = createProgress({ total: 10, tty: false, enabled: true, logger });
    progress.update(stats(10));
    progress.stop();
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({ event: 'progress', progress: { done: 10, total: 10 } });
  });
});

describe('the progress line, when no bar is drawn', () => {
  it('says every interval the job, the host, sent/total, the rate now and asked, and the ETA, logged and printed', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const printed: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) });
    let now = 0;
    let requests = 0;
    const progress = createProgress({ total: 1_000, tty: true, enabled: false, logger, clock: () => now, everyMs: 10, job: 'promo', host: 'box-1', askedPerSecond: 10, requests: () => requests, print: (l) => void printed.push(l) });
    progress.update({ ...stats(100), failed: 0, inDoubt: 0 });
    requests = 200; // a first message and an after-send step each
    now = 20_000; // 100 done in 20 s: 5/s, 900 left
    await waitFor(() => printed.length >= 1);
    progress.stop();
    expect(printed[0]).toBe('progress of promo on box-1: 100/1000 sent, 100 done, 10 requests/s now (10/s asked), ETA 3m 00s');
    expect(logged[0]).toMatchObject({ event: 'progress', msg: printed[0], progress: { sent: 100, total: 1_000, sent_per_second: 5, requests_per_second: 10, asked_per_second: 10, eta_seconds: 180 } });
  });

  it('measures the rate now over the last interval, not since the start', async () => {
    const printed: string[] = [];
    let now = 0;
    const progress = createProgress({ total: 300, tty: false, enabled: true, logger: pino({ level: 'silent' }), clock: () => now, everyMs: 10, print: (l) => void printed.push(l) });
    progress.update(stats(100));
    now = 10_000;
    await waitFor(() => printed.length >= 1);
    progress.update(stats(120)); // 20 more in the next 10 s
    now = 20_000;
    await waitFor(() => printed.length >= 2);
    progress.stop();
    expect(printed[1]).toMatch(/^progress of the run: 120\/300 sent, 120 done, 2 sent\/s now, ETA 1m 30s$/);
  });

  it('logs no line at all with an interval of 0', () => {
    const logged: string[] = [];
    const progress = createProgress({ total: 10, tty: false, enabled: true, logger: pino({ level: 'info' }, { write: (l: string) => void logged.push(l) }), everyMs: 0 });
    progress.update(stats(10));
    progress.stop();
    expect(logged).toEqual([]);
  });
});
