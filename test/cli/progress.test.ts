import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
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

  it('logs a line now and then instead when there is no terminal', () => {
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    const progress = createProgress({ total: 10, tty: false, enabled: true, logger });
    progress.update(stats(10));
    progress.stop();
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({ msg: 'progress', progress: { done: 10, total: 10 } });
  });
});
