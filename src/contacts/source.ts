/** Opening a contacts file: the checks before reading, its first bytes, and its text as a stream. */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { type Encoding, type Format, formatFromName, formatFromText, sniffEncoding } from './detect.js';
import { InputError } from './errors.js';

/** How much of the start of a file is read to recognise its encoding, format and header. */
export const SAMPLE_BYTES = 64 * 1024;
const CHUNK_BYTES = 256 * 1024;

export interface Source {
  file: string;
  format: Format;
  encoding: Encoding;
  /** Decoded start of the file, BOM removed: up to SAMPLE_BYTES bytes. */
  sample: string;
  /** True when the sample is the whole file. */
  complete: boolean;
}

/** Checks that `file` is a readable, non-empty text file and recognises what it holds. */
export async function openSource(file: string, format: Format | undefined): Promise<Source> {
  let size: number;
  try {
    const st = await stat(file);
    if (st.isDirectory()) {
      throw new InputError(
        `${file} is a folder, not a contacts file; give the path of a .csv, .tsv, .json or .ndjson file (or a glob such as ${file}/*.csv)`,
        file,
      );
    }
    if (!st.isFile()) throw new InputError(`${file} is not a regular file; give the path of a contacts file`, file);
    size = st.size;
  } catch (err) {
    throw asInputError(err, file);
  }

  const head = new Uint8Array(Math.min(size, SAMPLE_BYTES));
  let read = 0;
  try {
    const fh = await open(file, 'r');
    try {
      while (read < head.length) {
        const { bytesRead } = await fh.read(head, read, head.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw asInputError(err, file);
  }

  const bytes = head.subarray(0, read);
  const sniffed = sniffEncoding(bytes);
  if (sniffed.kind === 'binary') {
    const what =
      sniffed.what === 'xlsx' ? 'an Excel workbook (.xlsx)' : sniffed.what === 'xls' ? 'an old Excel workbook (.xls)' : 'not a text file';
    throw new InputError(
      `${file} is ${what}, not a CSV or JSON list; in the spreadsheet use Save As > "CSV UTF-8" and give that file`,
      file,
    );
  }
  const complete = read >= size;
  const sample = new TextDecoder(sniffed.encoding).decode(bytes, { stream: !complete });
  const kind = format ?? formatFromName(file) ?? formatFromText(sample);
  if (sample.trim() === '') {
    const fix =
      kind === 'json'
        ? 'it needs a JSON list of contacts such as [{"phone": "+5511987654321"}]'
        : kind === 'ndjson'
          ? 'it needs one JSON object a line such as {"phone": "+5511987654321"}'
          : 'it needs a header row naming the columns (such as phone,name) and one row per contact';
    throw new InputError(`${file} is empty; ${fix}`, file, 1);
  }
  return { file, format: kind, encoding: sniffed.encoding, sample, complete };
}

/** The file's text, decoded, BOM removed, in chunks of any size. */
export async function* textChunks(source: Source): AsyncGenerator<string> {
  const decoder = new TextDecoder(source.encoding);
  try {
    for await (const chunk of createReadStream(source.file, { highWaterMark: CHUNK_BYTES })) {
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (text !== '') yield text;
    }
  } catch (err) {
    throw asInputError(err, source.file);
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}

/**
 * The file as a stream for csv-parse: UTF-8 goes through as bytes (csv-parse drops the BOM
 * itself), other encodings are decoded to text first.
 */
export function csvInput(source: Source): Readable {
  if (source.encoding === 'utf-8') return createReadStream(source.file, { highWaterMark: CHUNK_BYTES });
  return Readable.from(textChunks(source), { objectMode: false });
}

/** A file-system error as the sentence a user can act on; other errors unchanged. */
export function asInputError(err: unknown, file: string): unknown {
  if (err instanceof InputError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new InputError(`${file}: no such file; check the path (relative paths start from ${process.cwd()})`, file, undefined, { cause: err });
    case 'EISDIR':
      return new InputError(`${file} is a folder, not a contacts file; give the path of a .csv, .tsv, .json or .ndjson file`, file, undefined, { cause: err });
    case 'EACCES':
    case 'EPERM':
      return new InputError(`${file}: permission denied; make the file readable by this user`, file, undefined, { cause: err });
    default:
      return err;
  }
}

/** The files in order, a path given twice (say by two overlapping globs) read once. */
export function uniquePaths(files: readonly string[]): string[] {
  const seen = new Set<string>();
  return files.filter((file) => {
    const key = resolve(file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}