import type { Action } from '../types.js';
import { customFieldParts, fill } from './fill.js';
import type { RuleInput } from './input.js';
import { mediaPlacement } from './media.js';
import { textLengthReject } from './text-length.js';

/** `ww` takes text only, its media inside start-whatsapp; a job with no text skips the contact. */
export function webSessionMessage({ contact, job }: RuleInput): Action {
  const { text, media } = job.message;
  if (text === undefined) return { kind: 'skip', reason: 'no_text_for_ww' };
  const filled = fill([{ label: 'message.text', source: text }, ...customFieldParts(job)], contact.vars);
  if (!filled.ok) return filled.reject;
  const [body = ''] = filled.values;
  return textLengthReject(body) ?? { kind: 'text', text: body, ...mediaPlacement(media, 'inline') };
}
