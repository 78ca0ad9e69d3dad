import type { RejectAction } from './input.js';

/** The longest text the platform takes (A29), in UTF-16 units as JavaScript counts. */
export const MAX_TEXT_LENGTH = 4096;

/** A filled text too long for the platform rejects the contact. */
export function textLengthReject(text: string): RejectAction | undefined {
  if (text.length <= MAX_TEXT_LENGTH) return undefined;
  return {
    kind: 'reject',
    reason: 'text_too_long',
    detail: `the text is ${text.length} characters once filled in; the platform takes at most ${MAX_TEXT_LENGTH.toLocaleString('en-US')}`,
  };
}
