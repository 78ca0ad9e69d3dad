import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalWriteError, openJournal, readJournal, type JournalFile } from '../../src/checkpoint/file/index.js';
import { attempt, phoneOf, sent, tempDir } from './helpers.js';

async function lines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
}

describe('journal', () => {
  it('lands 1,000 concurrent appends in the file, one valid JSON event a line', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const journal = await openJournal(file);
    const events = Array.from({ length: 1000 }, (_, i) => attempt(phoneOf(i), { line: i + 2 }));
    await Promise.all(events.map((e) => journal.append(e)));
    await journal.close();

    const written = (await lines(file)).map((l) => JSON.parse(l) as unknown);
    expect(written).toEqual(events);
  });

  it('shares one write + fsync among appends that arrive while a flush is in flight', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    let writes = 0;
    let syncs = 0;
    const journal = await openJournal(file, {
      openFile: async (f) => {
        const { open } = await import('node:fs/promises');
        const real = await open(f, 'a');
        return {
          write: ((...args: Parameters<JournalFile['write']>) => {
            writes += 1;
            return (real.write as (...a: unknown[]) => ReturnType<JournalFile['write']>)(...args);
          }) as JournalFile['write'],
          datasync: () => {
            syncs += 1;
            return real.datasync();
          },
          close: () => real.close(),
        };
      },
    });
    // 64 workers, each appending 20 events one after the other (like 64 concurrent sends).
    await Promise.all(
      Array.from({ length: 64 }, async (_, w) => {
        for (let i = 0; i < 20; i++) await journal.append(attempt(phoneOf(w * 100 + i)));
      }),
    );
    await journal.close();

    const stats = journal.stats();
    expect(stats.appends).toBe(1280);
    expect(stats.flushes).toBe(syncs);
    expect(writes).toBe(syncs);
    expect(stats.flushes).toBeLessThan(1280 / 10);
    expect(stats.largestBatch).toBeGreaterThan(1);
    expect(await lines(file)).toHaveLength(1280);
  });

  it('resolves an append only once its line is in the file', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const journal = await openJournal(file);
    for (let i = 0; i < 20; i++) {
      const event = attempt(phoneOf(i));
      await journal.append(event);
      expect(await lines(file)).toContain(JSON.stringify(event));
    }
    await journal.close();
  });

  it('keeps an append waiting until its fsync has returned', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    let releaseSync!: () => void;
    const gate = new Promise<void>((r) => (releaseSync = r));
    const journal = await openJournal(file, {
      openFile: async () => ({
        write: (async (_b: Buffer, _o: number, length: number) => ({ bytesWritten: length, buffer: _b })) as unknown as JournalFile['write'],
        datasync: () => gate,
        close: async () => undefined,
      }),
    });
    let resolved = false;
    const pending = journal.append(attempt(phoneOf(1))).then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(resolved).toBe(false);
    releaseSync();
    await pending;
    expect(resolved).toBe(true);
    await journal.close();
  });

  it('writes what a partial write left over, so no line is cut short', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const chunks: Buffer[] = [];
    const journal = await openJournal(file, {
      openFile: async () => ({
        // At most 7 bytes a call, like a disk that takes a little at a time.
        write: (async (b: Buffer, o: number, length: number) => {
          const n = Math.min(7, length);
          chunks.push(Buffer.from(b.subarray(o, o + n)));
          return { bytesWritten: n, buffer: b };
        }) as unknown as JournalFile['write'],
        datasync: async () => undefined,
        close: async () => undefined,
      }),
    });
    const events = [attempt(phoneOf(1)), sent(phoneOf(1))];
    await Promise.all(events.map((e) => journal.append(e)));
    await journal.close();
    expect(Buffer.concat(chunks).toString()).toBe(events.map((e) => JSON.stringify(e) + '\n').join(''));
  });

  it('rejects every waiting append, and later ones, when the disk fails', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const journal = await openJournal(file, {
      openFile: async () => ({
        write: (async () => {
          throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        }) as unknown as JournalFile['write'],
        datasync: async () => undefined,
        close: async () => undefined,
      }),
    });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => journal.append(attempt(phoneOf(i)))));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof JournalWriteError)).toBe(true);
    await expect(journal.append(attempt(phoneOf(99)))).rejects.toThrow(/no space left on device/);
    expect(journal.stats().appends).toBe(0);
    await journal.close();
  });

  it('flushes appends still queued when closed, and refuses appends after close', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const journal = await openJournal(file);
    const queued = Array.from({ length: 50 }, (_, i) => journal.append(attempt(phoneOf(i))));
    await journal.close();
    await Promise.all(queued);
    expect(await lines(file)).toHaveLength(50);
    await expect(journal.append(attempt(phoneOf(51)))).rejects.toThrow(/closed/);
  });

  it('writes a batch of events with appendMany in one flush', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const journal = await openJournal(file);
    await journal.appendMany([attempt(phoneOf(1)), sent(phoneOf(1)), attempt(phoneOf(2))]);
    await journal.close();
    expect(journal.stats()).toMatchObject({ appends: 3, flushes: 1 });
    expect(await lines(file)).toHaveLength(3);
  });

  it('appends to an existing journal, keeping what is there', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const first = await openJournal(file);
    await first.append(attempt(phoneOf(1)));
    await first.close();
    const second = await openJournal(file);
    await second.append(sent(phoneOf(1)));
    await second.close();
    expect((await readJournal(file)).events.map((e) => e.t)).toEqual(['attempt', 'sent']);
  });

  it('does not glue a new event onto a torn last line left by a power cut', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const whole = JSON.stringify(attempt(phoneOf(1))) + '\n';
    const torn = JSON.stringify(sent(phoneOf(1))).slice(0, 25);
    await writeFile(file, whole + torn);

    const journal = await openJournal(file);
    await journal.append(attempt(phoneOf(2)));
    await journal.close();

    const read = await readJournal(file);
    expect(read.events.map((e) => e.phone)).toEqual([phoneOf(1), phoneOf(2)]);
    expect(read.tornLines).toBe(1);
    expect(read.tornLineNumbers).toEqual([2]);
  });
});
