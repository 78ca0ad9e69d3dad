import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { clientSettings } from '../../src/app/index.js';
import { createProgress } from '../../src/cli/progress.js';
import { emptyStats } from '../../src/run/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { testJob } from '../helpers/run.js';

let sim: RunningSimulator;
let c: Campaign;

afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

function env() {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
}

describe('a fixed concurrency that holds the run below the asked rate', () => {
  it('is named in the summary and in run --json, with the rate it allows', async () => {
    sim = await startSimulator({ seed: 3, faults: { latencyMs: 100 } });
    c = await campaign({ rows: 30, job: { rate: { per_second: 1000, concurrency: 2 } } });

    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(0);
    // 2 in flight ÷ ~0.1 s answers: about 20/s of the 1000/s asked.
    expect(run.stdout).toMatch(/concurrency-bound: (1\d|20)\/s of 1000\/s asked; use rate\.concurrency auto/);

    const again = await cli(['run', c.jobFile, '--json'], { env: { ...env().env } });
    expect(JSON.parse(again.stdout)).toMatchObject({ concurrency: { mode: 'fixed', limit: 2 } });
    const summary = JSON.parse(await readFile(path.join(c.stateDir, 'cli-test', 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary).toHaveProperty('concurrency_bound');
  });

  it('is not mentioned with the default settings, which grow the requests in flight instead', async () => {
    sim = await startSimulator({ seed: 3, faults: { latencyMs: 100 } });
    c = await campaign({ rows: 30, job: { rate: { per_second: 1000 } } });
    const run = await cli(['run', c.jobFile, '--json'], env());
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout) as { concurrency: { mode: string; peak_in_flight: number }; concurrency_bound: string | null };
    expect(outcome.concurrency.mode).toBe('auto');
    expect(outcome.concurrency_bound).toBeNull();
  });
});

describe('rate.timeout_s', () => {
  it('leaves a send unanswered past it in doubt, never sent again by itself', async () => {
    sim = await startSimulator({ seed: 3, faults: { latencyMs: 2_500 } });
    c = await campaign({ rows: 2, job: { rate: { per_second: 100, timeout_s: 1 }, retry: { attempts: 3, backoff_ms: 10 } } });
    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(1);
    const text = await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8');
    expect(parseCsv(text).map((r) => r.status)).toEqual(['in_doubt', 'in_doubt']);
    expect(text).toMatch(/no answer within the headers timeout/);
    // One request each reached the simulator (it answers after 2.5 s, long after the run gave up waiting): none was sent again.
    expect(sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp']).toBe(2);
  });

  it('is the client timeout, with as many connections as requests may be in flight and HTTP/2 offered', () => {
    expect(clientSettings(testJob({ rate: { per_second: 10 } }))).toEqual({ connections: 1000, headersTimeoutMs: 30_000, bodyTimeoutMs: 30_000, allowH2: true });
    expect(clientSettings(testJob({ rate: { per_second: 10, concurrency: 16, timeout_s: 5, http2: false } }))).toEqual({
      connections: 16,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      allowH2: false,
    });
  });
});

describe('the progress line', () => {
  it('carries the concurrency-bound sentence when there is one', () => {
    const lines: Array<{ msg: string; bound?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string; bound?: string }) });
    const progress = createProgress({ total: 10, tty: false, enabled: true, logger });
    progress.update({ ...emptyStats(), seen: 3, sent: 3 }, { concurrencyBound: 'concurrency-bound: 127/s of 1000/s asked; use rate.concurrency auto' });
    progress.stop();
    expect(lines.at(-1)?.msg).toMatch(/^progress of the run: 3\/10 sent, 3 done, .*; concurrency-bound: 127\/s of 1000\/s asked; use rate\.concurrency auto$/);
  });
});
