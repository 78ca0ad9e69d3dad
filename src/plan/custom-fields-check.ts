import type { Job } from '../job/index.js';
import { placeholderColumns } from './render.js';

/**
 * What the check reads of a CRM custom field, as `GET /company/{id}/crm-custom-fields` lists it (the
 * API client's `CustomField` has these fields; plan/ does not import api/).
 */
export interface CustomFieldInfo {
  key: string;
  name: string;
  active: boolean;
  options: readonly string[];
}

/** Fields listed by key in a message, at most. */
const LISTED = 20;

/**
 * Problems with the job's `after_send.custom_fields` against the company's CRM custom fields, one
 * sentence each naming `after_send.custom_fields.<key>`: a key the company has no field for, an
 * inactive field, and a fixed value (no `{{column}}`) that is not among the field's options when it
 * has options. Pure; an empty list when all is well.
 */
export function checkCustomFields(
  wanted: Job['after_send']['custom_fields'],
  fields: readonly CustomFieldInfo[],
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    const where = fieldPath(key);
    const field = fields.find((f) => f.key === key);
    if (field === undefined) {
      problems.push(`${where}: the company has no CRM custom field with the key "${key}"; ${unknownKeyFix(key, fields)}`);
      continue;
    }
    if (!field.active) {
      problems.push(`${where}: the CRM custom field ${describe(field)} is inactive; activate it in the platform or remove it from the job`);
    }
    if (field.options.length > 0 && placeholderColumns(value).length === 0 && !field.options.includes(value)) {
      const sameButCase = field.options.find((o) => o.toLowerCase() === value.trim().toLowerCase());
      const fix = sameButCase !== undefined ? `write it exactly "${sameButCase}"` : 'use one of them, written exactly';
      problems.push(`${where}: "${value}" is not one of the options of ${describe(field)} (${quoteAll(field.options)}); ${fix}`);
    }
  }
  return problems;
}

/** `after_send.custom_fields.campaign`, or `after_send.custom_fields["a key"]` for a key that is not a plain name. */
function fieldPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `after_send.custom_fields.${key}` : `after_send.custom_fields[${JSON.stringify(key)}]`;
}

function unknownKeyFix(key: string, fields: readonly CustomFieldInfo[]): string {
  if (fields.length === 0) return 'it has none: create the field in the platform first, or remove it from the job';
  const sameButCase = fields.find((f) => f.key.toLowerCase() === key.toLowerCase());
  if (sameButCase !== undefined) return `keys are case-sensitive: did you mean "${sameButCase.key}"?`;
  const listed = fields.slice(0, LISTED).map(describe).join(', ');
  const more = fields.length > LISTED ? `, and ${fields.length - LISTED} more` : '';
  return `use one of its keys: ${listed}${more}`;
}

/** `"campaign" (Campaign)`: the key, then the name people see in the platform. */
function describe(field: CustomFieldInfo): string {
  return field.name && field.name !== field.key ? `"${field.key}" (${field.name})` : `"${field.key}"`;
}

function quoteAll(options: readonly string[]): string {
  const shown = options.slice(0, LISTED).map((o) => `"${o}"`);
  return options.length > LISTED ? `${shown.join(', ')}, and ${options.length - LISTED} more` : shown.join(', ');
}
