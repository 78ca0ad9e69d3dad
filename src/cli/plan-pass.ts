import { contactReject, loadContacts, type Reject } from '../contacts/index.js';
import { actionLabel, decide, type Action } from '../plan/index.js';
import { loaderOptions, type Prepared } from './prepare.js';

/** What a full read of the contact list says, before anything is sent. */
export interface PlanPass {
  rows: number;
  contacts: number;
  rejects: Reject[];
  rejectedByReason: Record<string, number>;
  /** Planned action label → contacts (template, text, text+media, template+media, skip:<reason>). */
  byAction: Record<string, number>;
  examples: Array<{ phone: string; line: number; action: string; message: string }>;
  /** Every usable contact's key, in list order (the report lists the ones never reached as pending). */
  phones: Array<{ phone: string; line: number }>;
  warnings: number;
}

/**
 * Reads the whole list once: loader rejects, the planner's rejects (missing variables), and each
 * contact's planned action at `now`. Used by `plan` for its summary and by `run` for the reject-ratio
 * guard and the progress total.
 */
export async function planPass(
  prepared: Prepared,
  now: number,
  lastInbound: (phone: string) => number | undefined,
  exampleCount = 3,
): Promise<PlanPass> {
  const pass: PlanPass = { rows: 0, contacts: 0, rejects: [], rejectedByReason: {}, byAction: {}, examples: [], phones: [], warnings: 0 };
  const { items, counts } = loadContacts(prepared.files, loaderOptions(prepared.job));
  for await (const item of items) {
    if (item.kind === 'reject') {
      addReject(pass, item.reject);
      continue;
    }
    if (item.kind !== 'contact') continue;
    const contact = item.contact;
    const action = decide(contact, prepared.channel, prepared.job, now, { lastInboundAt: lastInbound(contact.phone) });
    if (action.kind === 'reject') {
      addReject(pass, contactReject(contact, action.reason, action.detail));
      continue;
    }
    pass.contacts += 1;
    pass.phones.push({ phone: contact.phone, line: contact.line });
    const label = actionLabel(action);
    pass.byAction[label] = (pass.byAction[label] ?? 0) + 1;
    if (pass.examples.length < exampleCount && action.kind !== 'skip') {
      pass.examples.push({ phone: contact.phone, line: contact.line, action: label, message: rendered(action) });
    }
  }
  pass.rows = counts.rows;
  pass.warnings = counts.warnings ?? 0;
  return pass;
}

function addReject(pass: PlanPass, reject: Reject): void {
  pass.rejects.push(reject);
  pass.rejectedByReason[reject.reason] = (pass.rejectedByReason[reject.reason] ?? 0) + 1;
}

function rendered(action: Action): string {
  switch (action.kind) {
    case 'template': {
      const vars = Object.entries(action.template.variables)
        .map(([k, v]) => `{{${k}}}=${JSON.stringify(v)}`)
        .join(', ');
      return `template ${action.template.name} (${action.template.language}) ${vars}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    }
    case 'text':
      return `${JSON.stringify(action.text)}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    default:
      return '';
  }
}
