import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/checkpoint/index.js';
import { drainDelayMs, drainLoop, DRAIN_FIRST_DELAY_MS, DRAIN_MAX_DELAY_MS } from '../../src/webhook/spool-drain.js';
import { OWNER_FILE, SpoolInUseError } from '../../src/webhook/spool-owner.js';
import { openSpool, type Spool } from '../../src/webhook/spool.js';

let root: string;
let dir: string;
const opened: Spool[] = [];

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'outreach-spool-'));
  dir = path.join(root, 'state', 'webhook-spool');
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

function event(id: number, content = 'oi'): RecordedEvent {
  return {
    message_id: String(id),
    conversation_id: '501',
    client_id: '77',
    direction: 'inbound',
    sender_type: 'client',
    content,
    created_at: '2025-03-01T10:00:00.000Z',
    received_at: '2025-03-01T10:00:01.000Z',
    source: 'webhook',
    phone: '+5511999990001',
    company_id: 1,
  };
}

async function open(options: { segmentLines?: number } = {}) {
  const found = await openSpool(dir, options);
  opened.push(found.spool);
  return found;
}

const segments = async () => (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
const lines = async (name: string) => (await readFile(path.join(dir, name), 'utf8')).split('\n').filter((l) => l !== '');

describe("the webhook's spool", () => {
  it('keeps each event as a JSON line of a 0600 file in a 0700 folder, whatever the umask, before append resolves', async () => {
    const before = process.umask(0o022);
    try {
      const { spool } = await open();
      await spool.append(event(1));
      await spool.append(event(2, 'STOP'));
      expect(spool.size).toBe(2);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(path.dirname(dir))).mode & 0o777).toBe(0o700);
      const [file] = await segments();
      expect(file).toBe('0000000001.jsonl');
      expect((await stat(path.join(dir, file ?? ''))).mode & 0o777).toBe(0o600);
      expect((await lines(file ?? '')).map((l) => JSON.parse(l) as RecordedEvent)).toEqual([event(1), event(2, 'STOP')]);
    } finally {
      process.umask(before);
    }
  });

  it('gives back what an earlier process kept, oldest first, and appends after a restart to a new segment', async () => {
    const first = await open();
    await Promise.all([first.spool.append(event(1)), first.spool.append(event(2)), first.spool.append(event(3))]);
    await first.spool.close();
    const again = await open();
    expect(again.skipped).toEqual([]);
    expect(again.spool.peek(10).map((e) => e.message_id)).toEqual(['1', '2', '3']);
    expect(again.spool.has('2')).toBe(true);
    await again.spool.append(event(4));
    expect(await segments()).toEqual(['0000000001.jsonl', '0000000002.jsonl']);
    expect(again.spool.peek(2).map((e) => e.message_id)).toEqual(['1', '2']);
  });

  it('skips and reports a line torn by a crash and a line that is no event, and keeps the rest', async () => {
    const first = await open();
    await first.spool.append(event(1));
    await first.spool.close();
    const file = path.join(dir, '0000000001.jsonl');
    await appendFile(file, 'not json at all\n');
    await appendFile(file, `${JSON.stringify(event(3))}\n`);
    // The crash: half of a line, no newline.
    await appendFile(file, JSON.stringify(event(4)).slice(0, 40));
    const again = await open();
    expect(again.skipped).toEqual([
      { file, line: 2, reason: 'not_an_event' },
      { file, line: 4, reason: 'torn', messageId: '4' },
    ]);
    expect(again.spool.peek(10).map((e) => e.message_id)).toEqual(['1', '3']);
    // The next line is never glued to the torn one.
    await again.spool.append(event(5));
    await again.spool.close();
    const third = await open();
    expect(third.spool.peek(10).map((e) => e.message_id)).toEqual(['1', '3', '5']);
  });

  it('deletes each segment once all its events are applied, and the last one when nothing is left', async () => {
    const { spool } = await open({ segmentLines: 2 });
    for (const id of [1, 2, 3, 4, 5]) await spool.append(event(id));
    expect(await segments()).toEqual(['0000000001.jsonl', '0000000002.jsonl', '0000000003.jsonl']);
    expect(spool.peek(3).map((e) => e.message_id)).toEqual(['1', '2', '3']);
    await spool.release(3);
    expect(await segments()).toEqual(['0000000002.jsonl', '0000000003.jsonl']);
    expect(spool.has('1')).toBe(false);
    expect(spool.peek(10).map((e) => e.message_id)).toEqual(['4', '5']);
    await spool.release(2);
    expect(spool.size).toBe(0);
    expect(await segments()).toEqual([]);
    await spool.append(event(6));
    expect(await segments()).toEqual(['0000000004.jsonl']);
  });

  it('deletes at opening a segment that holds nothing it could read (after reporting it)', async () => {
    await open().then(({ spool }) => spool.close());
    await writeFile(path.join(dir, '0000000007.jsonl'), '{"message_id":"9","conv');
    const { spool, skipped } = await open();
    expect(skipped).toHaveLength(1);
    expect(spool.size).toBe(0);
    expect(await segments()).toEqual([]);
  });

  it('refuses a second receiver on a folder in use, naming its pid and the flag to use', async () => {
    await open();
    const err = await openSpool(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpoolInUseError);
    expect((err as Error).message).toMatch(new RegExp(`^the spool folder ${dir} is in use by the webhook receiver with pid ${process.pid} on ${hostname()} \\(since .+\\); stop it, or give this receiver a folder of its own with --spool DIR$`));
  });

  it('takes over a folder whose receiver is gone, and lets the folder go when closed', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.once('exit', resolve));
    const { spool } = await open();
    await spool.close();
    opened.length = 0;
    await writeFile(path.join(dir, OWNER_FILE), JSON.stringify({ host: hostname(), pid: child.pid, since: '2025-03-01T00:00:00.000Z' }));
    const taken = await open();
    expect(JSON.parse(await readFile(path.join(dir, OWNER_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await taken.spool.close();
    expect(await readdir(dir)).not.toContain(OWNER_FILE);
  });
});

describe('the loop that applies the spool', () => {
  it('waits 250 ms after a first failure, doubling up to 10 s, each wait between half and all of it', () => {
    expect(drainDelayMs(1, () => 1)).toBe(DRAIN_FIRST_DELAY_MS);
    expect(drainDelayMs(2, () => 1)).toBe(500);
    expect(drainDelayMs(3, () => 0)).toBe(500);
    expect(drainDelayMs(20, () => 1)).toBe(DRAIN_MAX_DELAY_MS);
    expect(drainDelayMs(20, () => 0)).toBe(DRAIN_MAX_DELAY_MS / 2);
  });

  it('tries again after each failure with the injected sleep, says when the store is back, and stops when nothing is left', async () => {
    const slept: number[] = [];
    const told: string[] = [];
    let tries = 0;
    const drain = drainLoop({
      async pass() {
        tries += 1;
        if (tries < 3) throw new Error(`down ${tries}`);
        return tries === 4;
      },
      sleep: async (ms) => void slept.push(ms),
      onFailure: (err, failures) => told.push(`${(err as Error).message} (${failures})`),
      onRecovery: () => told.push('back'),
    });
    drain.wake();
    expect(drain.running).toBe(true);
    await drain.ended();
    expect(drain.running).toBe(false);
    expect(tries).toBe(4);
    expect(told).toEqual(['down 1 (1)', 'down 2 (2)', 'back']);
    expect(slept).toHaveLength(2);
    expect(slept[1]).toBeGreaterThanOrEqual(DRAIN_FIRST_DELAY_MS);
  });

  it('stops at once when stopped while it waits', async () => {
    const drain = drainLoop({
      pass: () => Promise.reject(new Error('down')),
      sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      onFailure: () => undefined,
      onRecovery: () => undefined,
    });
    drain.wake();
    await drain.stop();
    expect(drain.running).toBe(false);
    drain.wake();
    expect(drain.running).toBe(false);
  });
});
