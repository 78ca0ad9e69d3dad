import { describe, expect, it } from 'vitest';
import { byteWords, copyWords, putWords } from '../../src/report/byte-words.js';

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

describe('bytes written 4 at a time', () => {
  it('writes each text exactly, whatever its length, and the next write takes over the spare bytes', () => {
    for (const text of ['', ',', ',,', ',,,', ',,,,', 'sent,template,', 'ção,"x"\n', ',,,,,,,,,,,,,,,,,,,,,\n']) {
      const out = Buffer.alloc(64, 0x2e);
      const end = putWords(viewOf(out), 5, byteWords(Buffer.from(text)));
      const after = putWords(viewOf(out), end, byteWords(Buffer.from('Z')));
      expect(out.toString('utf8', 5, after)).toBe(`${text}Z`);
      expect(out.subarray(0, 5).toString()).toBe('.....');
    }
  });

  it('copies any span of a buffer exactly, from any offset to any offset', () => {
    const source = Buffer.from('Ana\u0000+5511910000000\u0000Bia Souza, ça');
    for (let from = 0; from < source.length; from++) {
      for (let to = from; to <= source.length; to++) {
        const out = Buffer.alloc(source.length + 8, 0x2e);
        const end = copyWords(viewOf(source), source, from, to, viewOf(out), 3);
        expect(end).toBe(3 + to - from);
        expect(out.subarray(3, end).equals(source.subarray(from, to))).toBe(true);
        expect(out[end]).toBe(0x2e);
      }
    }
  });
});
