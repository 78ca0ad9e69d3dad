import type { z } from 'zod';

/** The loose view of a zod definition that walking the schema needs. */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
}

const def = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;

/** The field names allowed in the object at `path` of `schema`, or [] when it is not an object. */
export function fieldsAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const objects = objectsAt(schema, path);
  return [...new Set(objects.flatMap((o) => Object.keys(def(o).shape ?? {})))];
}

function objectsAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType[] {
  const d = def(schema);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return d.innerType ? objectsAt(d.innerType, path) : [];
    case 'pipe':
      return d.in ? objectsAt(d.in, path) : [];
    case 'union':
      return (d.options ?? []).flatMap((o) => objectsAt(o, path));
  }
  if (path.length === 0) return d.type === 'object' ? [schema] : [];
  const [head, ...rest] = path;
  if (d.type === 'object') {
    const child = d.shape?.[String(head)];
    return child ? objectsAt(child, rest) : [];
  }
  if (d.type === 'record' && d.valueType) return objectsAt(d.valueType, rest);
  if (d.type === 'array' && d.element) return objectsAt(d.element, rest);
  return [];
}
