/** The one atomic writer: a file replaced whole, private, and two writes of it at once never sharing a temporary file. */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/files/atomic.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});
const folder = async () => (dir = await mkdtemp(path.join(tmpdir(), 'outreach-atomic-')));

async function* slowly(text: string, pieces: number): AsyncGenerator<string> {
  for (let i = 0; i < pieces; i++) {
    await new Promise((r) => setImmediate(r));
    yield text;
  }
}

describe('writeFileAtomic', () => {
  it('lets one process write the same file twice at once: both end, the file is one of the two whole, and no temporary file stays', async () => {
    const file = path.join(await folder(), 'report.csv');
    await Promise.all([writeFileAtomic(file, slowly('a', 50)), writeFileAtomic(file, slowly('b', 50))]);
    expect(['a'.repeat(50), 'b'.repeat(50)]).toContain(await readFile(file, 'utf8'));
    expect(await readdir(path.dirname(file))).toEqual(['report.csv']);
  });

  it('writes text, bytes, and pieces of either, each piece before the next is asked for', async () => {
    const base = await folder();
    const reused = Buffer.from('xy');
    function* reusing(): Generator<Uint8Array> {
      reused.write('ab');
      yield reused;
      reused.write('cd');
      yield reused;
    }
    await writeFileAtomic(path.join(base, 'text'), 'olá\n');
    await writeFileAtomic(path.join(base, 'bytes'), Buffer.from([1, 2, 3]));
    await writeFileAtomic(path.join(base, 'pieces'), reusing());
    await writeFileAtomic(path.join(base, 'stream'), slowly('z', 3));
    expect(await readFile(path.join(base, 'text'), 'utf8')).toBe('olá\n');
    expect([...(await readFile(path.join(base, 'bytes')))]).toEqual([1, 2, 3]);
    expect(await readFile(path.join(base, 'pieces'), 'utf8')).toBe('abcd');
    expect(await readFile(path.join(base, 'stream'), 'utf8')).toBe('zzz');
  });

  it('makes the file 0600 and its new folders 0700, replacing a file that had another mode', async () => {
    const base = await folder();
    const file = path.join(base, 'new', 'summary.json');
    await writeFileAtomic(file, '{}\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const open = path.join(base, 'open.json');
    await writeFile(open, 'old', { mode: 0o644 });
    await writeFileAtomic(open, 'new');
    expect((await stat(open)).mode & 0o777).toBe(0o600);
    expect(await readFile(open, 'utf8')).toBe('new');
  });

  it('leaves the old file and no temporary one when its source fails', async () => {
    const file = path.join(await folder(), 'report.csv');
    await writeFileAtomic(file, 'old');
    async function* failing(): AsyncGenerator<string> {
      yield 'half';
      throw new Error('the source broke');
    }
    await expect(writeFileAtomic(file, failing())).rejects.toThrow('the source broke');
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(path.dirname(file))).toEqual(['report.csv']);
  });

  it('checks the written temporary file before the rename: a refusal leaves the old file and no temporary one', async () => {
    const file = path.join(await folder(), 'checkpoint.jsonl');
    await writeFile(file, 'old');
    const seen: string[] = [];
    const refuse = async (temp: string) => {
      seen.push(await readFile(temp, 'utf8'));
      throw new Error('would change its state');
    };
    await expect(writeFileAtomic(file, 'new', { check: refuse })).rejects.toThrow('would change its state');
    expect(seen).toEqual(['new']);
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(path.dirname(file))).toEqual(['checkpoint.jsonl']);
    await writeFileAtomic(file, 'new', { check: async (temp) => void (await readFile(temp)) });
    expect(await readFile(file, 'utf8')).toBe('new');
  });
});
