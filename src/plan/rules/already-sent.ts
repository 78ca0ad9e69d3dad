import { messageKey } from '../../job/index.js';
import { render } from '../render.js';
import type { Action } from '../types.js';
import type { Gate, RuleInput } from './input.js';

/**
 * The same message is never sent twice to one person: a contact another job of the company already sent
 * this very message (the same template, language and filled values, or the same filled text, in either of
 * the forms this job could send it now) is skipped `already_sent`, naming that job and the day, whatever
 * the time since. `limits.repeat_message` sends it again on purpose. Another message from another job is
 * the frequency cap's (`recently_messaged`).
 */
export const alreadySent: Gate = (input) => {
  const earlier = input.context.sentBefore;
  if (input.job.limits.repeat_message || earlier === undefined || earlier.length === 0) return undefined;
  const keys = messageKeys(input, input.composed());
  const same = earlier.filter((m) => keys.has(m.message)).sort((a, b) => b.at - a.at)[0];
  if (same === undefined) return undefined;
  return {
    kind: 'skip',
    reason: 'already_sent',
    detail: `job ${same.job} sent this message on ${new Date(same.at).toISOString().slice(0, 10)}`,
    earlier: { job: same.job, at: same.at },
  };
};

/** The keys of every form the contact's message could go in now: the chosen one, its fallback template, and the job's text for it. */
function messageKeys(input: RuleInput, action: Action): Set<string> {
  const keys = new Set<string>();
  if (action.kind === 'template') keys.add(messageKey({ template: action.template }));
  if (action.kind === 'text') {
    keys.add(messageKey({ text: action.text }));
    if (action.fallbackTemplate) keys.add(messageKey({ template: action.fallbackTemplate }));
  }
  const text = input.job.message.text;
  if (action.kind === 'template' && text !== undefined) {
    const filled = render(text, input.contact.vars);
    if (filled.ok) keys.add(messageKey({ text: filled.text }));
  }
  return keys;
}
