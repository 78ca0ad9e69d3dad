import { MAX_JOB_DEPTH } from './own-data.js';

/**
 * Where a JSON text first goes wrong, and what is wrong there. `JSON.parse` names no line (and,
 * on Node 20, not always a position), so this small scanner finds it.
 */
export interface JsonSyntaxError {
  line: number;
  column: number;
  what: string;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}


export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  let depth = 0;
  const fail = (what: string, at = i): never => {
    throw new Stop(at, what);
  };
  const ws = () => {
    for (let c = text[i]; c === ' ' || c === '\t' || c === '\n' || c === '\r'; c = text[++i]);
  };
  const shown = (at: number) => (at < text.length ? JSON.stringify(text[at]) : 'the end of the file');

  const string = () => {
    const start = i++;
    for (let c = text[i]; c !== undefined; c = text[i]) {
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a \\u escape needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`${shown(i + 1)} cannot follow a backslash; write \\\\ for a backslash`);
        continue;
      }
      if (c < ' ') fail('a line break or control character inside a string; close the quote or write it as \\n');
      i++;
    }
    fail('a string opens here and never closes; add the closing "', start);
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y; // sticky: matched at i, no copy of the rest
  const number = () => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) return fail(`${shown(i)} does not start a valid number`);
    i += m[0].length;
  };

  const value = (): void => {
    ws();
    const c = text[i];
    if (c === undefined) return fail('the file ends where a value was expected');
    if (c === '{' || c === '[') {
      if (++depth > MAX_JOB_DEPTH) {
        fail(`objects and lists nest more than ${MAX_JOB_DEPTH} levels deep here, which no job field does; see jobs/black-friday.json`);
      }
      if (c === '{') object();
      else array();
      depth--;
      return;
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === "'") fail('strings need double quotes ("…"), not single quotes');
    fail(`${shown(i)} cannot start a value; expected a string, number, object, list, true, false or null`);
  };

  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === '}') fail('a comma before "}"; remove the trailing comma');
      if (text[i] !== '"') fail(`expected a field name in double quotes, found ${shown(i)}`);
      string();
      ws();
      if (text[i] !== ':') fail(`expected ":" after the field name, found ${shown(i)}`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(`expected "," or "}" after a value, found ${shown(i)}; a comma may be missing`);
    }
  };

  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail('a comma before "]"; remove the trailing comma');
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(`expected "," or "]" after a value, found ${shown(i)}; a comma may be missing`);
    }
  };

  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${shown(i)} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { ...lineAndColumn(text, err.at), what: err.what };
  }
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
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
