/**
 * A parsed job file as data the schema can read safely: every object copied into one with no
 * prototype, so no setting is ever read from `Object.prototype` (or from a prototype that a
 * `"__proto__"` key would install), and the keys that reach a prototype in JavaScript are taken
 * out, each reported where it was found.
 */

/** Keys that name or reach an object's prototype in JavaScript: never a job setting, at any depth. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Levels of objects and lists a job may nest (the schema uses four); deeper is refused, not walked. */
export const MAX_JOB_DEPTH = 32;

export interface OwnData {
  /** The copy: objects without a prototype, reserved keys left out, nothing deeper than MAX_JOB_DEPTH. */
  data: unknown;
  /** Each reserved key found, with the path of the object that held it. */
  reserved: Array<{ path: Array<string | number>; key: string }>;
  /** The path of each value nested too deep (left out of `data`). */
  tooDeep: Array<Array<string | number>>;
}

/** Copies a parsed JSON value (own enumerable keys only); see the module comment. */
export function ownData(value: unknown): OwnData {
  const out: OwnData = { data: undefined, reserved: [], tooDeep: [] };
  out.data = copy(value, [], out);
  return out;
}

function copy(value: unknown, path: Array<string | number>, out: OwnData): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (path.length >= MAX_JOB_DEPTH) {
    out.tooDeep.push(path);
    return undefined;
  }
  if (Array.isArray(value)) return value.map((item: unknown, i) => copy(item, [...path, i], out));
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.has(key)) {
      out.reserved.push({ path, key });
      continue;
    }
    result[key] = copy((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return result;
}
