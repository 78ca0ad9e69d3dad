import { invalid } from './http.js';

/** Laravel-style field readers: a missing required field or a wrong type is a 422 naming the field (A21). */

export type Body = Record<string, unknown>;

export function asObject(body: unknown): Body {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) invalid('The request body must be a JSON object.');
  return body as Body;
}

/** Absent or null → undefined; otherwise must be a string. */
export function optString(body: Body, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') invalid(`The ${name} field must be a string.`);
  return v;
}

export function reqString(body: Body, name: string): string {
  const v = optString(body, name);
  if (v === undefined || v.trim() === '') invalid(`The ${name} field is required.`);
  return v;
}

export function optInt(body: Body, name: string): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) invalid(`The ${name} field must be an integer.`);
  return v;
}

export function reqInt(body: Body, name: string): number {
  const v = optInt(body, name);
  if (v === undefined) invalid(`The ${name} field is required.`);
  return v;
}

export function optBool(body: Body, name: string): boolean | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') invalid(`The ${name} field must be true or false.`);
  return v;
}

export function optStringArray(body: Body, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) invalid(`The ${name} field must be an array of strings.`);
  return v as string[];
}

/** A map of string to string (template variables). */
export function optStringMap(body: Body, name: string): Record<string, string> | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) invalid(`The ${name} field must be an object of strings.`);
  for (const x of Object.values(v)) if (typeof x !== 'string') invalid(`The ${name} field must be an object of strings.`);
  return v as Record<string, string>;
}

/** A query integer: absent → undefined; present and not an integer → 422. */
export function queryInt(query: URLSearchParams | null, name: string): number | undefined {
  const raw = query?.get(name);
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) invalid(`The ${name} parameter must be an integer.`);
  return Number(raw);
}

/** page/per_page of A12, A13. */
export function pageParams(query: URLSearchParams | null, defaultSize: number, maxSize: number) {
  const page = queryInt(query, 'page') ?? 1;
  const perPage = queryInt(query, 'per_page') ?? defaultSize;
  if (page < 1) invalid('The page parameter must be at least 1.');
  if (perPage < 1) invalid('The per_page parameter must be at least 1.');
  return { page, perPage: Math.min(perPage, maxSize) };
}

export function paginate<T>(items: readonly T[], page: number, perPage: number) {
  return {
    data: items.slice((page - 1) * perPage, page * perPage),
    pagination: {
      current_page: page,
      per_page: perPage,
      total: items.length,
      last_page: Math.max(1, Math.ceil(items.length / perPage)),
    },
  };
}
