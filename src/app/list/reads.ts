/**
 * What a whole read of the list read (each file's size, time, SHA-256 and line breaks), kept with its
 * listing, and how the list has changed since: a list whose earlier files are the same and whose last
 * file only had rows appended, or that gained new files after them, is read from where it grew.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { ListingReads, ReadFile } from '../../checkpoint/index.js';
import type { TailAt } from '../../contacts/index.js';

const PIECE = 1 << 20;

/** The first `size` bytes of a file: their SHA-256, their line breaks, and whether they end with one. */
async function digestOf(file: string, size: number): Promise<Pick<ReadFile, 'sha256' | 'lines' | 'endsAtBreak'>> {
  const handle = await open(file, 'r');
  try {
    const hash = createHash('sha256');
    const piece = Buffer.allocUnsafe(Math.min(PIECE, Math.max(1, size)));
    let lines = 0;
    let last = -1;
    for (let at = 0; at < size; ) {
      const { bytesRead } = await handle.read(piece, 0, Math.min(piece.length, size - at), at);
      if (bytesRead === 0) throw new Error(`${file} ended while it was read`);
      const part = piece.subarray(0, bytesRead);
      hash.update(part);
      for (let i = part.indexOf(0x0a); i !== -1; i = part.indexOf(0x0a, i + 1)) lines += 1;
      last = part[bytesRead - 1] ?? -1;
      at += bytesRead;
    }
    return { sha256: hash.digest('hex'), lines, endsAtBreak: last === 0x0a };
  } finally {
    await handle.close();
  }
}

/**
 * Each file as it is now (size, time, and its bytes read through once), in the list's order; a file
 * whose size and time are the ones of `earlier` keeps that read (as a listing's source trusts them).
 */
export async function readsOf(files: readonly string[], earlier?: ListingReads): Promise<ListingReads> {
  const out: ReadFile[] = [];
  for (const file of files) {
    const s = await stat(file);
    const before = earlier?.files.find((f) => f.file === file && f.size === s.size && f.mtimeMs === s.mtimeMs);
    out.push(before ?? { file, size: s.size, mtimeMs: s.mtimeMs, ...(await digestOf(file, s.size)) });
  }
  return { files: out };
}

/** The files' part of a listing's source (as listFiles gives it) for the files as `reads` found them. */
export function filesOfReads(reads: ListingReads): string {
  return JSON.stringify(reads.files.map((f) => [f.file, f.size, f.mtimeMs]));
}

/** How the list is now against what a listing read: the rows to read from where it grew (none: the same bytes), or why it must be read whole. */
export type Growth = { grown: true; tails: TailAt[]; newBytes: number } | { grown: false; why: string };

/**
 * The list's files now against `reads`: the same files first, in the same order; each but the last
 * the same (size and time, or else the same bytes); the last the same or longer with its first bytes
 * the same (their SHA-256) and ending at a line break; then any new files, read whole. Anything else
 * (a file edited before its end, shorter, replaced by one of the same length, removed, or a new file
 * before an old one) is read whole.
 */
export async function growthOf(files: readonly string[], reads: ListingReads): Promise<Growth> {
  const then = reads.files;
  if (then.length === 0 || files.length < then.length || then.some((f, i) => files[i] !== f.file)) {
    return { grown: false, why: 'the list names other files than those it was read from' };
  }
  const tails: TailAt[] = [];
  let newBytes = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i] ?? '';
    const s = await stat(file);
    const before = then[i];
    if (before === undefined) {
      tails.push({ file, fromByte: 0, fromLine: 1 });
      newBytes += s.size;
      continue;
    }
    const last = i === then.length - 1;
    if (s.size === before.size) {
      if (s.mtimeMs !== before.mtimeMs && (await digestOf(file, s.size)).sha256 !== before.sha256) return { grown: false, why: `${file} changed since it was read` };
      continue;
    }
    if (s.size < before.size) return { grown: false, why: `${file} is shorter than when it was read` };
    if (!last) return { grown: false, why: `${file} grew, and it is not the last file of the list` };
    if (!before.endsAtBreak) return { grown: false, why: `${file} grew, and its last line had no line break` };
    if ((await digestOf(file, before.size)).sha256 !== before.sha256) return { grown: false, why: `${file} changed before its end` };
    tails.push({ file, fromByte: before.size, fromLine: before.lines + 1 });
    newBytes += s.size - before.size;
  }
  return { grown: true, tails, newBytes };
}

/** Bytes per line of what `reads` read (at least 1): a tail's rows are about its bytes divided by it. */
export function bytesPerLine(reads: ListingReads): number {
  const bytes = reads.files.reduce((n, f) => n + f.size, 0);
  const lines = reads.files.reduce((n, f) => n + f.lines, 0);
  return Math.max(1, bytes / Math.max(1, lines));
}

/**
 * The reads to keep with a listing of the list read whole while its files were `files` (listFiles):
 * undefined when they cannot be read, or changed since (a listing without reads is only ever used for
 * the list as it was).
 */
export async function readsFor(list: readonly string[], files: string, earlier?: ListingReads): Promise<ListingReads | undefined> {
  const reads = await readsOf(list, earlier).catch(() => undefined);
  return reads && filesOfReads(reads) === files ? reads : undefined;
}
