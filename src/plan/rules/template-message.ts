import type { Action } from '../types.js';
import { customFieldParts, fill, variableParts } from './fill.js';
import type { RuleInput } from './input.js';
import { mediaPlacement } from './media.js';
import { renderedTemplate } from './template.js';

/** wba/whatsapp: the approved template; outside the window there is nothing else to send, and the media stays behind. */
export function templateMessage({ contact, job }: RuleInput, open: boolean): Action {
  const { template, media } = job.message;
  if (!template) return { kind: 'skip', reason: 'outside_24h_window' };
  const parts = variableParts(template.variables);
  const filled = fill([...parts, ...customFieldParts(job)], contact.vars);
  if (!filled.ok) return filled.reject;
  return {
    kind: 'template',
    template: renderedTemplate(template, parts, filled.values),
    ...(open ? mediaPlacement(media, 'followup') : {}),
    mediaLeftOut: media !== undefined && !open,
  };
}
