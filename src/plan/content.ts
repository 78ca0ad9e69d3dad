import type { Contact } from '../contacts/types.js';
import type { Message } from '../job/index.js';
import { fill, variableParts } from './rules/fill.js';
import { renderedTemplate } from './rules/template.js';
import type { RenderedTemplate } from './types.js';
import { chooseVariant, variantLabel } from './variant.js';

/** Every message of the job a contact may have been sent, filled for that contact (whatever the channel and window chose). */
export interface ContactContent {
  /** The contact's variant label (`default` for the job's own message); absent when the job has no variants. */
  variant?: string;
  /** The free text, filled; absent when the job has none or a placeholder is blank. */
  text?: string;
  /** The template with its variables filled; absent when the job has none or a variable is blank. */
  template?: RenderedTemplate;
}

/**
 * The contact's message (its variant's, or the job's), each part filled as `decide` fills it: what
 * `show` prints and what `reconcile` looks for on the platform. Pure.
 */
export function contactContent(contact: Pick<Contact, 'country' | 'language' | 'vars'>, message: Message): ContactContent {
  const choice = chooseVariant(contact, message);
  const { text, template } = choice.message;
  const out: ContactContent = message.variants.length > 0 ? { variant: variantLabel(choice) } : {};
  if (text !== undefined) {
    const filled = fill([{ label: 'message.text', source: text }], contact.vars);
    if (filled.ok && filled.values[0] !== undefined) out.text = filled.values[0];
  }
  if (template) {
    const parts = variableParts(template.variables);
    const filled = fill(parts, contact.vars);
    if (filled.ok) out.template = renderedTemplate(template, parts, filled.values);
  }
  return out;
}
