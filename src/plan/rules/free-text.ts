import type { Action } from '../types.js';
import { customFieldParts, fill, variableParts } from './fill.js';
import type { RuleInput } from './input.js';
import { mediaPlacement } from './media.js';
import { renderedTemplate } from './template.js';
import { textLengthReject } from './text-length.js';

/**
 * wba/whatsapp with the window open: the text, its media as a message after it, and the template
 * filled too, to go instead if the provider says the window has closed after all.
 */
export function freeTextMessage({ contact, job }: RuleInput, text: string): Action {
  const { template, media } = job.message;
  const templateParts = template ? variableParts(template.variables) : [];
  const filled = fill([{ label: 'message.text', source: text }, ...templateParts, ...customFieldParts(job)], contact.vars);
  if (!filled.ok) return filled.reject;
  const [body = '', ...templateValues] = filled.values;
  return (
    textLengthReject(body) ?? {
      kind: 'text',
      text: body,
      ...mediaPlacement(media, 'followup'),
      ...(template ? { fallbackTemplate: renderedTemplate(template, templateParts, templateValues) } : {}),
    }
  );
}
