import type { CountryCode } from 'libphonenumber-js';
// The metadata alone (its `countries` are libphonenumber's country codes, getCountries()'s list): the
// library's parsing code is not loaded to read a job file (status, report load no contact list).
import metadata from 'libphonenumber-js/min/metadata';
import { z } from 'zod';

/**
 * Field builders whose messages say what is wrong and how to fix it. Each message is the rest of a
 * sentence; `problems.ts` puts the field's JSON path in front ("rate.per_second: must be …").
 */

/** What zod hands an error function: we only read the input. */
interface IssueInput {
  readonly input?: unknown;
}

/** "must be <expect>" for a present value, "is missing; <missing>" for an absent one. */
export function says(expect: string, missing?: string): (iss: IssueInput) => string {
  return (iss) => {
    if (iss.input === undefined) return missing ? `is missing; ${missing}` : `is missing; it must be ${expect}`;
    let text = `must be ${expect}`;
    if (typeof iss.input === 'string' && /number/.test(expect) && iss.input.trim() !== '' && Number.isFinite(Number(iss.input))) {
      text += '; write it without quotes';
    }
    return text;
  };
}

/** A whole number in [min, max]. */
export function wholeNumber(min: number, max: number, example: number, missing?: string) {
  const expect =
    max === Number.MAX_SAFE_INTEGER
      ? `a whole number of at least ${min}, e.g. ${example}`
      : `a whole number from ${min} to ${max}, e.g. ${example}`;
  const error = says(expect, missing);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A positive id (company, channel, pipeline…). */
export function id(example: number, missing?: string) {
  const error = says(`a whole number above 0, e.g. ${example}`, missing);
  return z.number({ error }).int({ error }).positive({ error }).max(Number.MAX_SAFE_INTEGER, { error });
}

/** A number above 0 (exclusive) and at most max. */
export function positiveNumber(max: number, example: number) {
  const error = says(`a number above 0, e.g. ${example}`);
  const tooBig = says(`a number above 0 and at most ${max}, e.g. ${example}`);
  return z.number({ error }).positive({ error }).max(max, { error: tooBig });
}

/** A ratio in [0, 1]. */
export function ratio(example: number) {
  const error = says(`a number from 0 to 1 (a fraction: 0.2 means 20 %), e.g. ${example}`);
  return z.number({ error }).min(0, { error }).max(1, { error });
}

/** A non-empty string. */
export function text(expect: string, missing?: string) {
  const error = says(expect, missing);
  return z.string({ error }).trim().min(1, { error });
}

/** Well-formed `{{column}}` placeholders; the planner's `render` uses the same grammar. */
const PLACEHOLDER = /\{\{\s*[^{}\s][^{}]*?\s*\}\}/g;

/** A problem with the placeholders of a text, or undefined when every `{{` is a well-formed `{{column}}`. */
export function placeholderProblem(value: string): string | undefined {
  if (/\{\{\s*\}\}/.test(value)) return 'has an empty placeholder {{}}; put a column name inside, e.g. {{name}}';
  const rest = value.replace(PLACEHOLDER, '');
  if (rest.includes('{{') || rest.includes('}}')) {
    return 'has a "{{" or "}}" that is not part of a {{column}} placeholder; write placeholders as {{column}}, e.g. {{name}}';
  }
  return undefined;
}

/** A string that may hold `{{column}}` placeholders, filled per contact. */
export function templated(expect: string, missing?: string) {
  const error = says(expect, missing);
  return z
    .string({ error })
    .min(1, { error })
    .superRefine((value, ctx) => {
      const problem = placeholderProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    });
}

const countries = Object.keys(metadata.countries) as CountryCode[];

/** An ISO 3166-1 alpha-2 code that libphonenumber knows, upper case. */
export function countryCode() {
  return z.enum(countries, {
    error: (iss) => {
      const input = typeof iss.input === 'string' ? iss.input : '';
      const upper = input.toUpperCase();
      if (input !== upper && (countries as string[]).includes(upper)) return `must be in upper case: "${upper}"`;
      return `${JSON.stringify(iss.input)} is not a country code; use two upper-case letters (ISO 3166-1), e.g. "BR" or "US"`;
    },
  });
}
