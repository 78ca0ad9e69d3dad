/**
 * `{{column}}` placeholders, filled from a contact's columns. The grammar matches the job schema's
 * check (src/job/fields.ts): `{{`, a name without braces, `}}`; the name is trimmed and lower-cased,
 * as the contact's column keys are.
 */
const PLACEHOLDER = /\{\{\s*([^{}\s][^{}]*?)\s*\}\}/g;

export type RenderResult = { ok: true; text: string } | { ok: false; missing: string };

/** The column a placeholder's name refers to. */
export function columnKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Fills every placeholder (values trimmed); the first one whose column is absent or blank makes
 * the result `{ ok: false, missing: column }`: a message is never sent with a blank.
 */
export function render(template: string, vars: Record<string, string>): RenderResult {
  let missing: string | undefined;
  const text = template.replace(PLACEHOLDER, (_match, name: string) => {
    const key = columnKey(name);
    const value = Object.hasOwn(vars, key) ? vars[key]?.trim() : undefined;
    if (!value) {
      missing ??= key;
      return '';
    }
    return value;
  });
  return missing === undefined ? { ok: true, text } : { ok: false, missing };
}

/** The distinct columns a text's placeholders use, in order of first use. */
export function placeholderColumns(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => columnKey(m[1]!)))];
}
