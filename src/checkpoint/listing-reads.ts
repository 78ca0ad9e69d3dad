/**
 * What a listing was read from, file by file, so that a later read of a list that only grew (a
 * nightly import appending rows, new files of a glob) reads only what is new: each file's byte
 * length, its modification time and a hash of those bytes when it was read, and where a row
 * appended after them starts. The port's own type: a backend keeps it with the listing's image.
 */

/** One contact file as a whole read of it found it. */
export interface ReadFile {
  /** The path as the list names it (a listed contact's `file`). */
  file: string;
  /** Bytes read: the file's size then. */
  size: number;
  /** Its modification time then (ms): with the size, the cheap sign that it did not change. */
  mtimeMs: number;
  /** SHA-256 of its `size` bytes, hex. */
  sha256: string;
  /** Line breaks in those bytes: a row appended after them starts on line `lines + 1`. */
  lines: number;
  /** Whether the bytes ended with a line break (a file whose last line was cut off is read again whole when it grows). */
  endsAtBreak: boolean;
}

export interface ListingReads {
  /** The list's files in the order they were read. */
  files: ReadFile[];
}

/** Whether `value` is a ListingReads (as a stored image's meta holds it). */
export function isListingReads(value: unknown): value is ListingReads {
  if (typeof value !== 'object' || value === null) return false;
  const { files } = value as Partial<ListingReads>;
  if (!Array.isArray(files)) return false;
  const fileOk = (f: Partial<ReadFile>) =>
    typeof f.file === 'string' && Number.isSafeInteger(f.size) && typeof f.mtimeMs === 'number' && typeof f.sha256 === 'string' && Number.isSafeInteger(f.lines) && typeof f.endsAtBreak === 'boolean';
  return files.every((f) => typeof f === 'object' && f !== null && fileOk(f as Partial<ReadFile>));
}
