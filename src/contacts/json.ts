/**
 * A JSON list of contacts, streamed: a small scanner finds where each entry of the top-level
 * array starts and ends (tracking strings and nesting) and JSON.parse reads one entry at a
 * time, so a file of hundreds of megabytes never sits in memory whole.
 */
import { InputError } from './errors.js';

export interface JsonEntry {
  /** 1-based line where the entry starts. */
  line: number;
  value: unknown;
}

/** An entry longer than this is a runaway brace or quote; it stops the load instead of eating memory. */
export const MAX_ENTRY_CHARS = 1_000_000;

/**
 * Lists and objects an entry may nest (its own braces count as one). Deeper is no contact list but a
 * runaway or hostile file, and walking it (JSON.stringify of a reject's detail) would overflow the stack.
 */
export const MAX_NESTING = 64;

/** Where the scanner is: before the opening [, after it, after a comma, inside an entry, after the closing ]. */
const State = { Start: 0, First: 1, Next: 2, Entry: 3, End: 4 } as const;
type State = (typeof State)[keyof typeof State];

export async function* jsonEntries(chunks: AsyncIterable<string>, file: string): AsyncGenerator<JsonEntry> {
  let state: State = State.Start;
  let line = 1;
  let listLine = 1;
  let entryLine = 1;
  let depth = 0;
  const openers: number[] = []; // the { and [ open at each depth of the current entry
  let inString = false;
  let escaped = false;
  let parts: string[] = [];
  let partsLength = 0;

  for await (const chunk of chunks) {
    let from = 0; // where the current entry's text starts in this chunk
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (state === State.Entry) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92 /* \ */) escaped = true;
          else if (c === 34 /* " */) inString = false;
          else if (c === 10) line++;
          continue;
        }
        if (c === 34) inString = true;
        else if (c === 123 /* { */ || c === 91 /* [ */) {
          openers[depth++] = c;
          if (depth > MAX_NESTING) throw tooDeep(file, line);
        }
        else if ((c === 125 /* } */ || c === 93) /* ] */ && depth > 0) {
          if (openers[--depth] !== c - 2) {
            // a } closing a [ or the other way round: JSON.parse says where
            parseJsonText(parts.join('') + chunk.slice(from, i + 1), file, entryLine);
          }
        } else if (c === 10) line++;
        else if (depth === 0 && (c === 44 /* , */ || c === 93)) {
          const text = partsLength === 0 ? chunk.slice(from, i) : parts.join('') + chunk.slice(from, i);
          parts = [];
          partsLength = 0;
          state = c === 44 ? State.Next : State.End;
          yield { line: entryLine, value: parseJsonText(text, file, entryLine) };
        }
        continue;
      }

      if (c === 10) {
        line++;
        continue;
      }
      if (c === 32 || c === 9 || c === 13 || (c === 0xfeff && state === State.Start)) continue;
      switch (state) {
        case State.Start:
          if (c !== 91) {
            throw new InputError(
              `${file} line ${line}: a JSON contacts file must be a list of objects, [{"phone": "+5511987654321"}, …]; wrap the contacts in [ ] or use .ndjson for one object a line`,
              file,
              line,
            );
          }
          listLine = line;
          state = State.First;
          continue;
        case State.End:
          throw new InputError(
            `${file} line ${line}: there is more text after the list's closing ]; remove it or put it inside the list`,
            file,
            line,
          );
        case State.First:
          if (c === 93) {
            state = State.End;
            continue;
          }
          break;
        case State.Next:
          if (c === 93) {
            throw new InputError(`${file} line ${line}: a comma before the closing ] has no entry after it; remove the comma`, file, line);
          }
          break;
      }
      if (c === 44) {
        throw new InputError(`${file} line ${line}: a comma with no entry before it; remove the comma`, file, line);
      }
      state = State.Entry;
      from = i;
      entryLine = line;
      depth = 0;
      if (c === 123 || c === 91) openers[depth++] = c;
      inString = c === 34;
      escaped = false;
    }
    if (state === State.Entry) {
      const piece = from === 0 ? chunk : chunk.slice(from);
      parts.push(piece);
      partsLength += piece.length;
      if (partsLength > MAX_ENTRY_CHARS) {
        throw new InputError(
          `${file} line ${entryLine}: this entry runs past ${MAX_ENTRY_CHARS.toLocaleString('en')} characters, most likely because a { or a quote opens here and never closes; close it`,
          file,
          entryLine,
        );
      }
    }
  }

  const last = state as State; // (the compiler loses track of assignments made across the yields above)
  if (last === State.End) return;
  if (last === State.Start) {
    throw new InputError(`${file} is empty; it needs a JSON list of contacts such as [{"phone": "+5511987654321"}]`, file, 1);
  }
  if (last === State.Entry && (depth > 0 || inString)) {
    throw new InputError(
      `${file} line ${entryLine}: this entry opens a ${inString ? 'quote' : '{ or ['} that never closes; close it`,
      file,
      entryLine,
    );
  }
  throw new InputError(`${file} line ${listLine}: the list opened here never closes; add ] at the end of the file`, file, listLine);
}

/** The error for an entry nested past MAX_NESTING, at `line` where it goes past. */
export function tooDeep(file: string, line: number): InputError {
  return new InputError(
    `${file} line ${line}: lists or objects nest more than ${MAX_NESTING} levels deep here; a contact is one object of plain values, such as {"phone": "+5511987654321"}`,
    file,
    line,
  );
}

/** Offset in `text` where lists and objects first nest past MAX_NESTING (strings skipped), or -1. */
export function nestingPastLimit(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_NESTING) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return -1;
}

/** JSON.parse, its error as one sentence naming the line: `startLine` is where `text` starts in the file. */
export function parseJsonText(text: string, file: string, startLine: number): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const position = /at position (\d+)/.exec(message);
    let line = startLine;
    if (position !== null) {
      const end = Math.min(Number(position[1]), text.length);
      for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
    }
    const why = message
      .replace(/,? ?"(?:[^"\\]|\\.)*" is not valid JSON$/, '')
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/^\w/, (c) => c.toLowerCase());
    throw new InputError(
      `${file} line ${line}: this is not valid JSON (${why}); fix it, for instance a missing comma or quote, or a comma before a closing brace`,
      file,
      line,
      { cause: err },
    );
  }
}
