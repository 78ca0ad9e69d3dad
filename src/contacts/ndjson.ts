/** NDJSON / JSON Lines: one JSON value a line, blank lines ignored. Streamed line by line. */
import { InputError } from './errors.js';
import { type JsonEntry, MAX_ENTRY_CHARS, nestingPastLimit, parseJsonText, tooDeep } from './json.js';

export async function* ndjsonEntries(chunks: AsyncIterable<string>, file: string): AsyncGenerator<JsonEntry> {
  let line = 0;
  let rest = '';
  for await (const chunk of chunks) {
    const text = rest === '' ? chunk : rest + chunk;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      line++;
      const entry = entryOf(text.slice(start, nl), file, line);
      if (entry !== undefined) yield entry;
      start = nl + 1;
    }
    rest = text.slice(start);
    if (rest.length > MAX_ENTRY_CHARS) {
      throw new InputError(
        `${file} line ${line + 1}: this line runs past ${MAX_ENTRY_CHARS.toLocaleString('en')} characters; an NDJSON file needs one object a line`,
        file,
        line + 1,
      );
    }
  }
  if (rest !== '') {
    line++;
    const entry = entryOf(rest, file, line);
    if (entry !== undefined) yield entry;
  }
}

function entryOf(text: string, file: string, line: number): JsonEntry | undefined {
  if (text.trim() === '') return undefined;
  if (nestingPastLimit(text) >= 0) throw tooDeep(file, line);
  return { line, value: parseJsonText(text, file, line) };
}
