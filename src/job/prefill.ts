import type { z } from 'zod';

/** The loose view of a zod definition that the walk needs. */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
}

const def = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;

/**
 * Puts an empty object without a prototype wherever the schema would otherwise parse a `{}` of its
 * own for a section left out (`.prefault({})`: columns, rate, retry, …). zod walks an object's keys
 * with for-in and reads its fields by name, so an ordinary `{}` would hand it anything enumerable
 * on `Object.prototype`. `data` is the caller's own copy (from `ownData`) and is changed in place.
 */
export function prefillSections(schema: z.core.$ZodType, data: unknown): void {
  const object = unwrap(schema).schema;
  const shape = def(object).shape;
  if (shape === undefined || data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const fields = data as Record<string, unknown>;
  for (const [key, child] of Object.entries(shape)) {
    const { prefault } = unwrap(child);
    if (fields[key] === undefined && prefault) fields[key] = Object.create(null);
    prefillSections(child, fields[key]);
  }
}

/** The schema under optional, default, prefault and the like, and whether a prefault was among them. */
function unwrap(schema: z.core.$ZodType): { schema: z.core.$ZodType; prefault: boolean } {
  let current = schema;
  let prefault = false;
  for (let d = def(current); ; d = def(current)) {
    if (d.type === 'prefault') prefault = true;
    const inner = d.type === 'pipe' ? d.in : ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(d.type) ? d.innerType : undefined;
    if (inner === undefined) return { schema: current, prefault };
    current = inner;
  }
}
