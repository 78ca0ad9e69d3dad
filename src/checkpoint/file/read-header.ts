import { open } from 'node:fs/promises';
import { parseEvent } from '../json-line.js';
import type { HeaderEvent } from '../types.js';

/** The first header of a journal, read from its first line; undefined when there is no journal or its first line is not one. */
export async function readHeader(file: string): Promise<HeaderEvent | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const chunk = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, 0);
    const text = chunk.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    const event = parseEvent(end === -1 ? text : text.slice(0, end));
    return event?.t === 'header' ? event : undefined;
  } finally {
    await handle.close();
  }
}
