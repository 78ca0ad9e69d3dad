/** Pure guesses about a file from its name and first bytes: format, text encoding, CSV delimiter. */

export type Format = 'csv' | 'tsv' | 'json' | 'ndjson';
export type Delimiter = ',' | ';' | '\t';
/** Names as `TextDecoder` knows them. */
export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type Sniffed =
  | { kind: 'text'; encoding: Encoding; bomLength: number }
  | { kind: 'binary'; what: 'xlsx' | 'xls' | 'binary' };

const EXTENSIONS: Record<string, Format> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

/** The format its extension names, or undefined (e.g. `.txt`, no extension). */
export function formatFromName(file: string): Format | undefined {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || dot < file.lastIndexOf('/')) return undefined;
  return EXTENSIONS[file.slice(dot).toLowerCase()];
}

/** For a file whose extension says nothing: `[` starts JSON, `{` starts NDJSON, anything else is CSV. */
export function formatFromText(text: string): Format {
  const first = /\S/.exec(text)?.[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/**
 * The encoding of a text file from its first bytes: a BOM decides (UTF-8, UTF-16 LE/BE);
 * without one, NUL bytes in every other position mean UTF-16, bytes that are not valid UTF-8
 * mean a legacy Windows export (Windows-1252), and everything else is UTF-8. Spreadsheets
 * saved in their own formats are recognised so the message can say how to export a CSV.
 */
export function sniffEncoding(head: Uint8Array): Sniffed {
  const b0 = head[0];
  const b1 = head[1];
  if (b0 === 0xef && b1 === 0xbb && head[2] === 0xbf) return { kind: 'text', encoding: 'utf-8', bomLength: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { kind: 'text', encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { kind: 'text', encoding: 'utf-16be', bomLength: 2 };
  if (b0 === 0x50 && b1 === 0x4b && head[2] === 0x03 && head[3] === 0x04) return { kind: 'binary', what: 'xlsx' };
  if (b0 === 0xd0 && b1 === 0xcf && head[2] === 0x11 && head[3] === 0xe0) return { kind: 'binary', what: 'xls' };

  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === 0) {
      if (i % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  }
  if (evenZeros + oddZeros > 0) {
    const half = head.length / 2;
    if (oddZeros > half * 0.3 && evenZeros < oddZeros / 10) return { kind: 'text', encoding: 'utf-16le', bomLength: 0 };
    if (evenZeros > half * 0.3 && oddZeros < evenZeros / 10) return { kind: 'text', encoding: 'utf-16be', bomLength: 0 };
    return { kind: 'binary', what: 'binary' };
  }

  try {
    // stream: true so that a character cut in two at the end of the sample is not an error
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return { kind: 'text', encoding: 'utf-8', bomLength: 0 };
  } catch {
    return { kind: 'text', encoding: 'windows-1252', bomLength: 0 };
  }
}

/** Excel's `sep=;` first line, which names the delimiter and precedes the header. */
export function excelSeparator(firstLine: string): Delimiter | undefined {
  const m = /^sep=(.)\s*$/i.exec(firstLine);
  const d = m?.[1];
  return d === ',' || d === ';' || d === '\t' ? d : undefined;
}

/**
 * The delimiter of a CSV from its header line: whichever of `,` `;` tab occurs most often
 * outside quotes; a tie or none at all means `,`.
 */
export function detectDelimiter(headerLine: string): Delimiter {
  let comma = 0;
  let semicolon = 0;
  let tab = 0;
  let quoted = false;
  for (let i = 0; i < headerLine.length; i++) {
    const c = headerLine.charCodeAt(i);
    if (c === 34 /* " */) quoted = !quoted;
    else if (quoted) continue;
    else if (c === 44 /* , */) comma++;
    else if (c === 59 /* ; */) semicolon++;
    else if (c === 9 /* tab */) tab++;
  }
  if (tab > comma && tab > semicolon) return '\t';
  if (semicolon > comma) return ';';
  return ',';
}

/** The first physical line of a text, without its line break. */
export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
