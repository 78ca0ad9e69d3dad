import type { FileHandle } from 'node:fs/promises';

/** What a scan reads at once unless told. */
const CHUNK = 64 * 1024;

/**
 * Reads [start, end) of an open file and calls `onLine` for each complete line (a torn last line is
 * left for later); returns the offset just after the last newline read. The events log and the
 * shared JSON-lines files read themselves incrementally with it; `chunk` bytes at a time (a reader
 * that goes through a whole file at once takes more, fewer reads).
 */
export function scanCompleteLines(handle: Pick<FileHandle, 'read'>, start: number, end: number, onLine: (line: string) => void, chunk = CHUNK): Promise<number> {
  return scanCompleteText(
    handle,
    start,
    end,
    (text) => {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        onLine(text.slice(from, nl));
        from = nl + 1;
      }
    },
    chunk,
  );
}

/**
 * Reads [start, end) of an open file as scanCompleteLines does, each read's complete lines given at
 * once as one text (`onText(text)`, every line in it ending with its newline): a reader that goes
 * through its lines by their offsets makes no string per line. A newline never falls inside a
 * character, so the text is the lines' text.
 */
export async function scanCompleteText(handle: Pick<FileHandle, 'read'>, start: number, end: number, onText: (text: string) => void, chunk = CHUNK): Promise<number> {
  let position = start;
  let consumed = start;
  let carry: Buffer = Buffer.alloc(0);
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(chunk, end - start)));
  while (position < end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, bytesRead)]) : buffer.subarray(0, bytesRead);
    const last = data.lastIndexOf(0x0a);
    if (last !== -1) {
      onText(data.toString('utf8', 0, last + 1));
      consumed += last + 1;
    }
    carry = Buffer.from(data.subarray(last + 1));
  }
  return consumed;
}
