/** Where a job file's JSON goes wrong, as jsonc-parser finds it, told in the tool's own sentences. */
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../src/job/json-syntax.js';

describe('a JSON syntax error in a job file', () => {
  it.each([
    ['a trailing comma in a list', '[1, 2,]', 1, 7, 'a comma before "]"; remove the trailing comma'],
    ['a line break inside a string', '{"a": "x\ny"}', 1, 9, 'a line break or control character inside a string; close the quote or write it as \\n'],
    ['a backslash before a letter that is no escape', '{"a": "c:\\q"}', 1, 10, '"q" cannot follow a backslash; write \\\\ for a backslash'],
    ['a \\u escape cut short', '{"a": "\\u12"}', 1, 8, 'a \\u escape needs four hex digits'],
    ['a number cut short', '{"a": 1.}', 1, 7, '"1." is not a complete number; write digits after its "." or "e"'],
    ['a minus with no digits', '{"a": -}', 1, 7, '"-" does not start a valid number'],
    ['a comment', '{"a": 1} // the rate', 1, 10, 'a comment, which JSON does not allow; remove it'],
    ['a missing colon', '{"a" 1}', 1, 6, 'expected ":" after the field name, found "1"'],
    ['a word that is no value', '{"a": yes}', 1, 7, '"y" cannot start a value; expected a string, number, object, list, true, false or null'],
    ['single quotes around a value', "{\"a\": 'x'}", 1, 7, 'strings need double quotes ("…"), not single quotes'],
    ['a value after the end', '{"a": 1}\n{"b": 2}', 2, 1, 'unexpected "{" after the end of the JSON value'],
    ['a list left open', '{"a": [1, 2', 1, 12, 'expected "," or "]" after a value, found the end of the file; a comma may be missing'],
    ['an object left open before its first field', '{', 1, 2, 'expected a field name in double quotes, found the end of the file'],
  ])('names the line, the column and the fix of %s', (_what, text, line, column, what) => {
    expect(findJsonSyntaxError(text)).toEqual({ line, column, what });
  });

  it('finds nothing wrong in valid JSON, escapes and numbers of every form included', () => {
    expect(findJsonSyntaxError('{"a": [true, false, null, -0.5e+3, 12], "b": "tab\\t \\"q\\" \\u00e9 \\\\ é", "c": {}}')).toBeUndefined();
  });
});
