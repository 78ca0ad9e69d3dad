import type { Template } from './types.js';

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * The distinct `{{n}}` placeholders in a template's components (any string at any depth),
 * as position strings in numeric order: what `variables` must fill (A22).
 */
export function templatePlaceholders(template: Pick<Template, 'components'>): string[] {
  const found = new Set<number>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(PLACEHOLDER)) found.add(Number(m[1]));
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (typeof value === 'object' && value !== null) {
      Object.values(value).forEach(visit);
    }
  };
  visit(template.components);
  return [...found].sort((a, b) => a - b).map(String);
}
