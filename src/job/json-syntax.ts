/**
 * Where a job file's JSON first goes wrong, and what is wrong there, as a sentence for people.
 * `JSON.parse` names no line (and, on Node 20, not always a position); jsonc-parser (VS Code's, in
 * strict JSON: no comments, no trailing comma) finds the first error, its code and its offset, and
 * this file turns them into the sentence, reading the text at that offset. It also refuses nesting
 * deeper than any job field before anything walks it.
 */
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';
import { MAX_JOB_DEPTH } from './own-data.js';

export interface JsonSyntaxError {
  line: number;
  column: number;
  what: string;
}

/** What the parser expects next where it stands: a field name, a value, or what follows a value ("," or the end). */
type Expecting = 'key' | 'value' | 'after';

interface Place {
  /** The innermost object or list open here; undefined at the top. */
  inside: '{' | '[' | undefined;
  expecting: Expecting;
}

/** Stops the walk at the first problem. */
class Found extends Error {
  constructor(
    readonly offset: number,
    readonly what: string,
  ) {
    super(what);
  }
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const open: Array<'{' | '['> = [];
  let expecting: Expecting = 'value';
  const begin = (kind: '{' | '[', offset: number) => {
    if (open.length >= MAX_JOB_DEPTH) throw new Found(offset, `objects and lists nest more than ${MAX_JOB_DEPTH} levels deep here, which no job field does; see jobs/black-friday.json`);
    open.push(kind);
    expecting = kind === '{' ? 'key' : 'value';
  };
  // The parser ends an object or a list before it says the file ended inside it: where it stood then is kept.
  let ended: Place = { inside: undefined, expecting: 'after' };
  const end = () => {
    ended = { inside: open.pop(), expecting };
    expecting = 'after';
  };
  try {
    visit(
      text,
      {
        onObjectBegin: (offset) => begin('{', offset),
        onArrayBegin: (offset) => begin('[', offset),
        onObjectEnd: end,
        onArrayEnd: end,
        onObjectProperty: () => void (expecting = 'after'),
        onLiteralValue: () => void (expecting = 'after'),
        onSeparator: (character) => void (expecting = character === ':' || open.at(-1) === '[' ? 'value' : 'key'),
        onError: (error, offset, length) => {
          const unclosed = printParseErrorCode(error) === 'CloseBraceExpected' || printParseErrorCode(error) === 'CloseBracketExpected';
          throw new Found(...problem(text, error, offset, length, unclosed ? ended : { inside: open.at(-1), expecting }));
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (err) {
    if (!(err instanceof Found)) throw err;
    return { ...lineAndColumn(text, err.offset), what: err.what };
  }
  return undefined;
}

/** The offset to point at and the sentence for the parser's first error, read from the text there. */
function problem(text: string, error: ParseErrorCode, offset: number, length: number, place: Place): [number, string] {
  const shown = (at: number) => (at < text.length ? JSON.stringify(text[at]) : 'the end of the file');
  const c = text[offset];
  const close = place.inside === '[' ? ']' : '}';
  switch (printParseErrorCode(error)) {
    case 'UnexpectedEndOfString': {
      // The parser ends a string at a line break: one that goes on past it is a line break inside it.
      const stop = offset + length;
      if (stop < text.length) return [stop, 'a line break or control character inside a string; close the quote or write it as \\n'];
      return [offset, 'a string opens here and never closes; add the closing "'];
    }
    case 'InvalidCharacter':
      return [firstControl(text, offset, length), 'a line break or control character inside a string; close the quote or write it as \\n'];
    case 'InvalidEscapeCharacter': {
      const at = badEscape(text, offset, length);
      return [at, `${shown(at + 1)} cannot follow a backslash; write \\\\ for a backslash`];
    }
    case 'InvalidUnicode':
      return [badEscape(text, offset, length), 'a \\u escape needs four hex digits'];
    case 'UnexpectedEndOfNumber':
      return [offset, `${JSON.stringify(text.slice(offset, offset + length))} is not a complete number; write digits after its "." or "e"`];
    case 'InvalidCommentToken':
      return [offset, 'a comment, which JSON does not allow; remove it'];
    case 'ColonExpected':
      return [offset, `expected ":" after the field name, found ${shown(offset)}`];
    case 'CommaExpected':
      return [offset, `expected "," or "${close}" after a value, found ${shown(offset)}; a comma may be missing`];
    case 'CloseBraceExpected':
    case 'CloseBracketExpected':
      // The file ends inside an object or a list: after a value, its "," or its end is missing; else, what was expected there.
      if (place.expecting !== 'after') break;
      return [offset, `expected "," or "${close}" after a value, found ${shown(offset)}; a comma may be missing`];
    default:
      break;
  }
  // A symbol, a field name or a value where it does not belong: what the parser expected says which.
  if (c === undefined) return [offset, place.expecting === 'key' ? 'expected a field name in double quotes, found the end of the file' : 'the file ends where a value was expected'];
  if ((c === '}' || c === ']') && previousToken(text, offset) === ',') return [offset, `a comma before "${c}"; remove the trailing comma`];
  if (place.expecting === 'key') return [offset, `expected a field name in double quotes, found ${shown(offset)}`];
  const outOfPlace = (at: number): [number, string] =>
    place.inside === undefined ? [at, `unexpected ${shown(at)} after the end of the JSON value`] : [at, `expected "," or "${close}" after a value, found ${shown(at)}; a comma may be missing`];
  if (place.expecting === 'after') return outOfPlace(offset);
  // A word that starts as true, false or null and goes on: the value is the word, and what follows it is out of place.
  const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, offset));
  if (word !== undefined) return outOfPlace(offset + word.length);
  if (c === "'") return [offset, 'strings need double quotes ("…"), not single quotes'];
  if (c === '-' || (c >= '0' && c <= '9')) return [offset, `${shown(offset)} does not start a valid number`];
  return [offset, `${shown(offset)} cannot start a value; expected a string, number, object, list, true, false or null`];
}

/** The last character before `offset` that is not white space. */
function previousToken(text: string, offset: number): string | undefined {
  for (let k = offset - 1; k >= 0; k--) if (!' \t\n\r'.includes(text[k] ?? '')) return text[k];
  return undefined;
}

/** The first control character of the string at `offset`. */
function firstControl(text: string, offset: number, length: number): number {
  for (let k = offset + 1; k < offset + length; k++) if ((text[k] ?? ' ') < ' ') return k;
  return offset;
}

/** The backslash of the string at `offset` that starts a wrong escape (an unknown letter, or \u without four hex digits). */
function badEscape(text: string, offset: number, length: number): number {
  for (let k = offset + 1; k < offset + length; k++) {
    if (text[k] !== '\\') continue;
    const e = text[k + 1] ?? '';
    if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(k + 2, k + 6)) : !'"\\/bfnrt'.includes(e) || e === '') return k;
    k += 1;
  }
  return offset;
}

/** 1-based line and column of an offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
