import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleLogger, flushLogger, setLogFormat } from '../../src/cli/logger.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';

let sim: RunningSimulator | undefined;
let c: Campaign | undefined;
afterEach(async () => {
  setLogFormat('sentences');
  await sim?.close();
  await c?.cleanup();
  sim = undefined;
  c = undefined;
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /;

/** A run slow enough to span a few progress intervals: 12 contacts at 4 per second. */
async function slowRun() {
  sim = await startSimulator({ seed: 4 });
  c = await campaign({ rows: 12, job: { rate: { per_second: 4, concurrency: 1 } } });
  return { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
}

async function runLog(): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(path.join(c?.stateDir ?? '', 'cli-test', 'run.log'), 'utf8');
  return text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('a run without a terminal', () => {
  it('prints a progress line every --progress-every seconds, even with --no-progress (the bar only), and run.log names the host and the job', async () => {
    const env = await slowRun();
    const r = await runCli(['run', c!.jobFile, '--no-progress', '--progress-every', '1'], { env });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) {
      expect(line).toMatch(ISO);
      expect(line.replace(ISO, '')).toMatch(new RegExp(`^progress of cli-test on ${hostname().replace(/\./g, '\\.')}: \\d+/12 sent, \\d+ done, [\\d.]+ requests/s now \\(4/s asked\\), ETA (\\d+s|\\d+m \\d\\ds|unknown)$`));
    }
    const log = await runLog();
    expect(log.every((l) => l.host === hostname() && l.job === 'cli-test')).toBe(true);
    expect(log.filter((l) => l.event === 'progress').length).toBeGreaterThanOrEqual(lines.length);
  });

  it('writes one JSON object a line on stderr with --log-format json: level, time, job, host, event and its fields', async () => {
    const env = await slowRun();
    const r = await runCli(['run', c!.jobFile, '--log-format', 'json', '--progress-every', '1'], { env });
    expect(r.code).toBe(0);
    const records = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const record of records) {
      expect(Object.keys(record).slice(0, 4)).toEqual(['level', 'time', 'job', 'host']);
      expect(record).toMatchObject({ job: 'cli-test', host: hostname() });
      expect(typeof record.event).toBe('string');
      expect(new Date(String(record.time)).toISOString()).toBe(record.time);
    }
    const events = records.map((x) => x.event);
    expect(events[0]).toBe('run_started');
    expect(events).toContain('progress');
    expect(events).toContain('run_finished');
    expect(records.find((x) => x.event === 'progress')).toMatchObject({ level: 'info', progress: { total: 12, asked_per_second: 4 } });
    expect(r.stdout).toMatch(/sent\s+12/); // the summary stays on stdout, for people
  });

  it('writes an error as one JSON object too (OUTREACH_LOG_FORMAT), and refuses a format it does not know', async () => {
    const missing = await runCli(['status', 'no-such-job.json'], { env: { OUTREACH_LOG_FORMAT: 'json' } });
    expect(missing.code).toBe(2);
    const record = JSON.parse(missing.stderr) as Record<string, unknown>;
    expect(record).toMatchObject({ level: 'error', event: 'error', host: hostname() });
    expect(String(record.msg)).toContain('no-such-job.json');
    const wrong = await runCli(['sync', '--log-format', 'xml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/outreach: --log-format xml: give sentences \(the default\) or json\n$/);
  });
});

describe('the logs of a long-lived command', () => {
  it('are shipped JSON objects on stderr in the JSON format, sentences otherwise', async () => {
    for (const format of ['json', 'sentences'] as const) {
      setLogFormat(format);
      const err = new PassThrough();
      let text = '';
      err.on('data', (d: Buffer) => (text += d.toString()));
      const logger = consoleLogger({ err });
      logger.warn({ event: 'webhook_refused', reason: 'bad_signature' }, 'webhook refused: missing or wrong signature');
      await flushLogger(logger);
      if (format === 'json') {
        expect(JSON.parse(text)).toMatchObject({ level: 'warn', host: hostname(), event: 'webhook_refused', reason: 'bad_signature', msg: 'webhook refused: missing or wrong signature' });
      } else {
        expect(text).toMatch(/warning: webhook refused: missing or wrong signature\n$/);
      }
    }
  });
});
