import type { MessageContent } from '../job/index.js';
import type { TemplateInfo } from './types.js';

type JobTemplate = NonNullable<MessageContent['template']>;

/** The distinct `{{n}}` positions of a template, in order, from every string of its components (text, buttons, …). */
export function templatePositions(template: Pick<TemplateInfo, 'components'>): number[] {
  const found = new Set<number>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) found.add(Number(m[1]));
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value !== null && typeof value === 'object') {
      Object.values(value).forEach(visit);
    }
  };
  visit(template.components);
  return [...found].sort((a, b) => a - b);
}

/**
 * Problems with one of the job's templates against the account's templates: it exists with that
 * name, in that language, APPROVED, and the job's variables are exactly its placeholders. `path` is
 * where the job has it: `message.template`, or `message.variants[1].template`.
 */
export function checkTemplate(wanted: JobTemplate, templates: readonly TemplateInfo[], path = 'message.template'): string[] {
  const sameName = templates.filter((t) => t.name === wanted.name);
  if (sameName.length === 0) {
    return [`${path}.name: there is no template "${wanted.name}" on this account; ${listTemplates(templates)}`];
  }
  const match = sameName.find((t) => t.language === wanted.language);
  if (!match) {
    const languages = sameName.map((t) => `${t.language} (${t.status})`).join(', ');
    return [
      `${path}.language: template ${wanted.name} has no ${wanted.language} version; it exists in ${languages}: set the language to one of those`,
    ];
  }
  const problems: string[] = [];
  if (match.status !== 'APPROVED') {
    problems.push(`${path}: ${wanted.name} (${wanted.language}) is ${match.status}, not APPROVED; only approved templates can be sent: ${notApprovedFix(match.status)}`);
  }
  const expected = templatePositions(match);
  const given = Object.keys(wanted.variables)
    .map(Number)
    .sort((a, b) => a - b);
  if (expected.join(',') !== given.join(',')) {
    const has = expected.length ? `has placeholders ${expected.map((n) => `{{${n}}}`).join(', ')}` : 'has no placeholders';
    const gives = given.length ? given.join(', ') : 'none';
    const fix = expected.length
      ? `give exactly one variable for each, keyed ${expected.map((n) => `"${n}"`).join(', ')}`
      : `remove ${path}.variables`;
    problems.push(`${path}.variables: template ${wanted.name} (${wanted.language}) ${has}; the job gives ${gives}; ${fix}`);
  }
  return problems;
}

/** What to do about a template the provider has not approved: wait for a pending one, mend a rejected one. */
function notApprovedFix(status: string): string {
  const upper = status.toUpperCase();
  if (upper === 'REJECTED') return 'edit it in the platform and submit it again, or choose an approved template';
  if (upper === 'PENDING' || upper === 'IN_APPEAL') return 'wait for the platform to approve it, or choose an approved template';
  return 'choose an approved template';
}

function listTemplates(templates: readonly TemplateInfo[]): string {
  if (templates.length === 0) return 'the account has no templates (create and approve one in the platform first)';
  const byName = new Map<string, string[]>();
  for (const t of templates) {
    const entry = t.status === 'APPROVED' ? t.language : `${t.language} ${t.status}`;
    byName.set(t.name, [...(byName.get(t.name) ?? []), entry]);
  }
  const names = [...byName.keys()].sort();
  const shown = names.slice(0, 15).map((n) => `${n} (${(byName.get(n) ?? []).join(', ')})`);
  const more = names.length > 15 ? `, and ${names.length - 15} more` : '';
  return `its templates are: ${shown.join(', ')}${more}`;
}
