import { closeSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headBytes, readHead } from '../../src/checkpoint/file/binary-file.js';
import { tempDir } from './helpers.js';

/** The bytes headBytes gives of a file holding `data`. */
async function headOf(data: Buffer): Promise<Buffer> {
  const file = path.join(await tempDir(), 'image.bin');
  writeFileSync(file, data);
  const fd = openSync(file, 'r');
  try {
    return headBytes(fd, data.length);
  } finally {
    closeSync(fd);
  }
}

describe("a binary image's head, read from its file", () => {
  it('reads a head of several megabytes whole, with the bytes after it as the file has them', async () => {
    const meta = { rest: Array.from({ length: 60_000 }, (_, i) => `text ${i} ${'x'.repeat(40)}`) };
    const head = Buffer.from(`outreach-test 1\n${JSON.stringify(meta)}\n`);
    const columns = Buffer.alloc(5_000_000, 7);
    const data = Buffer.concat([head, columns]);
    const read = await headOf(data);
    expect(read.length).toBeGreaterThanOrEqual(head.length);
    expect(read.length).toBeLessThan(data.length);
    expect(read.equals(data.subarray(0, read.length))).toBe(true);
    expect(readHead(read, 'outreach-test 1\n')).toEqual({ meta, end: head.length });
  });

  it('reads a short file whole, and a file with no second line whole (a torn head reads as none)', async () => {
    const short = Buffer.from('outreach-test 1\n{"a":1}\n');
    expect((await headOf(short)).equals(short)).toBe(true);
    const torn = Buffer.concat([Buffer.from('outreach-test 1\n{"a":"'), Buffer.alloc(200_000, 0x61)]);
    const read = await headOf(torn);
    expect(read.equals(torn)).toBe(true);
    expect(readHead(read, 'outreach-test 1\n')).toBeUndefined();
    expect((await headOf(Buffer.alloc(0))).length).toBe(0);
  });
});
