import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonlFile } from '../../src/checkpoint/file/jsonl-file.js';
import { tempDir } from './helpers.js';

describe('an append-only JSON-lines file of the state folder', () => {
  it('makes its folder on the first append when the folder is missing', async () => {
    const file = path.join(await tempDir(), 'not', 'yet', 'ledger.jsonl');
    await jsonlFile(file, 'the ledger').append([{ a: 1 }]);
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n');
  });

  it('starts its next line on a new line after another process left a torn one, even right after its own write', async () => {
    const file = path.join(await tempDir(), 'ledger.jsonl');
    const log = jsonlFile(file, 'the ledger');
    await log.append([{ a: 1 }]);
    await appendFile(file, '{"b":'); // another process crashed mid-write
    await log.append([{ c: 3 }]);
    await appendFile(file, '{"d":4}\n'); // another process's whole line
    await log.append([{ e: 5 }, { f: 6 }]);
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n{"b":\n{"c":3}\n{"d":4}\n{"e":5}\n{"f":6}\n');
    const lines: string[] = [];
    await log.catchUp((line) => lines.push(line));
    expect(lines).toEqual(['{"a":1}', '{"b":', '{"c":3}', '{"d":4}', '{"e":5}', '{"f":6}']);
  });
});
