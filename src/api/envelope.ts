import { isRecord, unusableAnswer } from './errors.js';

/** A success answer: `{success: true, data?, pagination?, …}` from a 2xx. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  method: string;
  path: string;
}

/** The body text as JSON when it is JSON, else the text itself (undefined when empty). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** C2: a 2xx must carry `{success: true}` (a 204 may carry nothing); anything else is unusable. */
export function successEnvelope(status: number, body: unknown, method: string, path: string): Answer {
  if (body === undefined && status === 204) return { status, body: { success: true }, method, path };
  if (!isRecord(body)) throw unusableAnswer(status, body, method, path, 'its body is not the JSON envelope');
  if (body.success !== true) throw unusableAnswer(status, body, method, path, 'without success: true');
  return { status, body, method, path };
}

/** `data` as an object of the endpoint's type (only its being an object is checked). */
export function dataObject<T>(a: Answer): T {
  if (!isRecord(a.body.data)) throw unusableAnswer(a.status, a.body, a.method, a.path, 'without a data object');
  return a.body.data as T;
}

/** `data` as an array of the endpoint's items (only its being an array is checked). */
export function dataArray<T>(a: Answer): T[] {
  if (!Array.isArray(a.body.data)) throw unusableAnswer(a.status, a.body, a.method, a.path, 'without a data array');
  return a.body.data as T[];
}

/** `{data: [...], pagination: {...}}`, checking that the named pagination keys are there. */
export function page<T, P>(a: Answer, keys: readonly (keyof P & string)[]): { data: T[]; pagination: P } {
  const data = dataArray<T>(a);
  const p = a.body.pagination;
  const missing = isRecord(p) ? keys.filter((k) => !(k in p)) : keys;
  if (missing.length > 0) {
    throw unusableAnswer(a.status, a.body, a.method, a.path, `without pagination.${missing.join(', pagination.')}`);
  }
  return { data, pagination: p as P };
}
