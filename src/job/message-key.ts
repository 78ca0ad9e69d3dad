/**
 * The identity of one filled message, as a person would tell two messages apart: a template's name and
 * language with the values it was filled with, or the filled text. Two jobs that send a person the same
 * promotion give it the same key, whatever their names, files or hosts; a key is short enough to keep
 * on every line of the ledger of first messages. The media and the after-send steps are not part of it.
 */
import { createHash } from 'node:crypto';

/** What a request carried (the checkpoint's `RequestContent`, the planner's chosen message). */
export type FilledMessage = { template: { name: string; language: string; variables: Record<string, string> } } | { text: string };

/** 16 hex digits of a SHA-256 of the message's canonical form (positions of a template's values in order). */
export function messageKey(message: FilledMessage): string {
  const canonical =
    'template' in message
      ? JSON.stringify(['t', message.template.name, message.template.language, Object.entries(message.template.variables).sort(([a], [b]) => byPosition(a, b))])
      : JSON.stringify(['x', message.text]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** Template positions ("1", "2", "10") in number order; any other key after them, by text. */
function byPosition(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
