import type { Contact } from '../contacts/types.js';
import type { Job } from '../job/index.js';
import type { PlanContext } from './context.js';
import { render } from './render.js';
import { alreadySent } from './rules/already-sent.js';
import { consent } from './rules/consent.js';
import { dailyLimit } from './rules/daily-limit.js';
import { experimentHold } from './rules/experiment.js';
import { freeTextMessage } from './rules/free-text.js';
import type { Gate, PlanJob, RuleInput } from './rules/input.js';
import { quietHours } from './rules/quiet-hours.js';
import { notYet } from './rules/start-at.js';
import { recentlyMessaged } from './rules/recently-messaged.js';
import { suppressed } from './rules/suppressed.js';
import { templateMessage } from './rules/template-message.js';
import { webSessionMessage } from './rules/web-session.js';
import { windowOpen } from './rules/window.js';
import type { Action, ChannelInfo } from './types.js';
import { chooseVariant, variantLabel } from './variant.js';

export type { PlanJob } from './rules/input.js';
export { MAX_TEXT_LENGTH } from './rules/text-length.js';

/**
 * The rules that may keep a contact from being sent now (skip or defer), tried in order before a
 * message is chosen. A new rule is a file in `rules/` and a line here.
 */
const GATES: readonly Gate[] = [
  notYet, // defer:start_at
  suppressed, // skip:suppressed
  consent, // skip:no_opt_in
  alreadySent, // skip:already_sent
  recentlyMessaged, // defer:recently_messaged
  quietHours, // defer:quiet_hours
  dailyLimit, // defer:daily_limit
  experimentHold, // defer:experiment
];

/**
 * What to send one contact, given the planning context. Pure: called once for the plan and again
 * right before each send, so a window that closed meanwhile turns text into the template.
 *
 * Every part that could go to this contact is filled before anything is chosen to go: the chosen
 * message, its fallback template, and the after-send custom fields. One missing value rejects the
 * contact, so neither a window closing mid-run nor the after-send step can ever send a blank.
 */
export function decide(contact: Contact, channel: ChannelInfo, job: PlanJob, context: PlanContext): Action {
  const message = armMessage(job, context);
  const choice = chooseVariant(contact, message);
  let composed: Action | undefined;
  const input: RuleInput = { contact, channel, job: { ...job, message: choice.message }, context, composed: () => (composed ??= compose(input)) };
  for (const gate of GATES) {
    const held = gate(input);
    if (held) return held;
  }
  const action = input.composed();
  if (message.variants.length === 0 || (action.kind !== 'template' && action.kind !== 'text')) return action;
  return { ...action, variant: variantLabel(choice) };
}

/** The contact's message: its arm's in an experiment's test, the winner's after the decision, else the job's. */
function armMessage(job: PlanJob, context: PlanContext): PlanJob['message'] {
  const arms = job.experiment?.arms;
  const facts = context.experiment;
  if (arms === undefined || facts === undefined) return job.message;
  const arm = facts.test ? facts.arm : facts.winner;
  return (arm !== undefined ? arms[arm] : undefined) ?? job.message;
}

/** The message itself: by channel, and on wba/whatsapp by the 24-hour window. */
function compose(input: RuleInput): Action {
  if (input.channel.type === 'ww') return webSessionMessage(input);
  const open = windowOpen(input);
  const { text, template, prefer } = input.job.message;
  if (open && text !== undefined && (prefer === 'text' || !template)) return freeTextMessage(input, text);
  return templateMessage(input, open);
}

/**
 * The after-send custom-field values for a contact. `decide` has already checked that they fill
 * for every contact it lets through; a contact it rejected gets `{ ok: false, missing }`.
 */
export function renderCustomFields(
  contact: Contact,
  job: Pick<Job, 'after_send'>,
): { ok: true; values: Record<string, string> } | { ok: false; missing: string } {
  const values: Record<string, string> = {};
  for (const [key, source] of Object.entries(job.after_send.custom_fields)) {
    const r = render(source, contact.vars);
    if (!r.ok) return r;
    values[key] = r.text;
  }
  return { ok: true, values };
}
