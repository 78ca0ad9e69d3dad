import { PATH_ID_PATTERN } from './assumptions.js';
import type { Id } from './types.js';

/** An id for a path (A4, A18): an integer, or a string of digits; anything else is a bug of the caller. */
export function pathId(name: string, value: Id): string {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value.trim();
  if (!PATH_ID_PATTERN.test(text)) {
    throw new TypeError(`${name} must be an integer id, got ${JSON.stringify(value)}`);
  }
  return text;
}

/** A free path segment (the custom-field values' entityType), percent-encoded. */
export function pathSegment(name: string, value: string): string {
  if (value === '') throw new TypeError(`${name} must not be empty`);
  return encodeURIComponent(value);
}

export type Query = Record<string, string | number | boolean | undefined>;

/** `?a=1&b=2` from the defined entries, or '' when there are none. */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
