import { DEFAULT_TEMPLATE_DISPLAY, type TemplateDisplay } from '../assumptions.js';
import type { SimTemplate, SimTemplateComponent } from '../types.js';

/** A22: what the provider says of a template send. Pure. */
export type TemplateCheck =
  | { ok: true; template: SimTemplate; text: string }
  | { ok: false; reason: 'template_not_found' | 'template_not_approved' | 'template_parameters'; detail: string };

const PLACEHOLDER = /\{\{(\d+)\}\}/g;

/** A component's texts: its own, or each button's label. */
function textsOf(component: SimTemplateComponent): string[] {
  return component.type === 'BUTTONS' ? component.buttons.map((b) => b.text) : [component.text];
}

/** Distinct `{{n}}` positions over every component, as strings. */
export function placeholders(template: SimTemplate): Set<string> {
  const found = new Set<string>();
  for (const c of template.components) for (const text of textsOf(c)) for (const m of text.matchAll(PLACEHOLDER)) found.add(m[1]!);
  return found;
}

/**
 * S10, S54: the text the message list shows of a template message, placeholders filled: `full` is every
 * component's text one a line (header, body, footer, each button's label); `body` is the body's text alone.
 */
export function renderTemplate(template: SimTemplate, variables: Record<string, string>, display: TemplateDisplay = DEFAULT_TEMPLATE_DISPLAY): string {
  const shown = display === 'body' ? template.components.filter((c) => c.type === 'BODY') : template.components;
  return shown
    .flatMap(textsOf)
    .map((text) => text.replace(PLACEHOLDER, (_, n: string) => variables[n] ?? ''))
    .join('\n');
}

/**
 * Finds the template by name and language and checks it can be sent with these variables.
 * S15: without `language`, a name that exists in exactly one language is that one; otherwise it is not found.
 * S16: variables must name exactly the template's placeholders, each with a non-empty value.
 */
export function checkTemplate(
  templates: readonly SimTemplate[],
  name: string,
  language: string | undefined,
  variables: Record<string, string>,
  display: TemplateDisplay = DEFAULT_TEMPLATE_DISPLAY,
): TemplateCheck {
  const named = templates.filter((t) => t.name === name);
  if (named.length === 0) return { ok: false, reason: 'template_not_found', detail: `template "${name}" does not exist` };
  let template: SimTemplate | undefined;
  if (language === undefined) {
    if (named.length > 1)
      return {
        ok: false,
        reason: 'template_not_found',
        detail: `template "${name}" exists in ${named.map((t) => t.language).join(', ')}; send a language`,
      };
    template = named[0]!;
  } else {
    template = named.find((t) => t.language === language);
    if (!template)
      return { ok: false, reason: 'template_not_found', detail: `template "${name}" does not exist in ${language}` };
  }
  if (template.status !== 'APPROVED')
    return { ok: false, reason: 'template_not_approved', detail: `template "${name}" is ${template.status}, not approved` };
  const expected = placeholders(template);
  const given = Object.keys(variables);
  if (given.length !== expected.size)
    return {
      ok: false,
      reason: 'template_parameters',
      detail: `template "${name}" expects ${expected.size} variables, got ${given.length}`,
    };
  for (const key of given) {
    if (!expected.has(key))
      return { ok: false, reason: 'template_parameters', detail: `template "${name}" has no placeholder {{${key}}}` };
    if (variables[key]!.trim() === '')
      return { ok: false, reason: 'template_parameters', detail: `variable ${key} of template "${name}" is empty` };
  }
  return { ok: true, template, text: renderTemplate(template, variables, display) };
}
