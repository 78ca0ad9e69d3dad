import { statesOf, type ContactEvent, type ContactState, type DeliveryFacts, type RequestContent, type StateStore, type SuppressionEntry } from '../../checkpoint/index.js';
import { normalisePhone, type Contact } from '../../contacts/index.js';
import { contactContent, type ContactContent } from '../../plan/index.js';
import { shouldSend } from '../../run/index.js';
import { AppError } from '../errors.js';
import { contactsByPhone, loadList } from '../list/index.js';
import { repliesOf } from '../delivery/index.js';

/** One contact's story: its row, its message, every request and answer, its ids, delivery and reply, and what comes next. */
export interface ContactStory {
  job: string;
  /** E.164. */
  phone: string;
  /** The row as written in the contact list (absent when the list no longer holds the phone). */
  row?: { file: string; line: number; phoneAsWritten: string; cells: Array<{ header: string; value: string }> };
  /** The contact's message filled from the list as it is now (absent when the phone is not in the list): what a send now would carry. */
  message?: ContactContent;
  /**
   * The contact's last request as the journal recorded it (absent when none left): its time, and what
   * it carried (absent for a journal written before requests kept their content). For a sent contact,
   * what the platform holds.
   */
  requested?: { at: string; content?: RequestContent };
  /** The state the journal replays to (absent when nothing was ever recorded). */
  state?: ContactState;
  /** Every event recorded for the contact, oldest first: each request (`attempt`) with its time, then its answer. */
  events: ContactEvent[];
  delivery?: DeliveryFacts;
  sentAt?: string;
  repliedAt?: string;
  /** The phone's entry on the store's suppression list, when it is on it: no job of the store messages it. */
  suppressed?: SuppressionEntry;
  /** What `outreach resume` would do with it now, in one sentence. */
  next: string;
}

/**
 * `outreach show <job> <phone>`: everything known locally about one contact (no platform). The
 * phone may be written as in the list; it is read like the list's (the job's default country).
 */
export async function showContact(jobPath: string, phoneText: string, options: { store: StateStore }): Promise<ContactStory> {
  const list = await loadList(jobPath, options.store, Date.now());
  const { job } = list;
  const store = options.store.account(job.company_id);
  const parsed = normalisePhone(phoneText, job.default_country);
  if (!parsed.ok) throw new AppError(`"${phoneText}" is not a phone number this job can read (${parsed.detail}); write it as in the list or as +<country><number>`);
  const phone = parsed.e164;
  const view = await store.readJob(job.name);
  const state = view?.states.get(phone);
  let contact: Contact | undefined;
  try {
    contact = (await contactsByPhone(list, new Set([phone]))).get(phone);
  } catch {
    contact = undefined; // the list is gone: the story is the state's alone
  }
  if (!state && !contact) throw new AppError(`${phone} is neither in the contact list of job "${job.name}" nor in its state; check the number, or the job`);
  const events = view ? await store.contactEvents(job.name, phone) : [];
  const requested = lastRequest(events);
  const replies = state?.status === 'sent' && view ? await repliesOf(store, statesOf(new Map([[phone, state]]))) : new Map<string, string>();
  const repliedAt = replies.get(phone);
  const suppressed = (await store.suppressions()).get(phone);
  return {
    job: job.name,
    phone,
    ...(contact?.row && {
      row: {
        file: contact.file,
        line: contact.line,
        phoneAsWritten: contact.row.rawPhone,
        cells: contact.row.headers.map((header, i) => ({ header, value: contact?.row?.cells[i] ?? '' })),
      },
    }),
    ...(contact && { message: contactContent(contact, job.message) }),
    ...(requested && { requested }),
    ...(state && { state }),
    events,
    ...(state?.status === 'sent' && { sentAt: state.sentAt, ...(state.delivery && { delivery: state.delivery }) }),
    ...(repliedAt !== undefined && { repliedAt }),
    ...(suppressed && { suppressed }),
    next: nextStep(state, contact !== undefined, suppressed),
  };
}

/** The last request the journal holds for the contact, with what it carried when the journal kept it. Pure. */
export function lastRequest(events: readonly ContactEvent[]): ContactStory['requested'] {
  const attempt = events.findLast((e) => e.t === 'attempt');
  if (attempt?.t !== 'attempt') return undefined;
  return { at: attempt.at, ...(attempt.content !== undefined && { content: attempt.content }) };
}

/** What `resume` would do with a contact in this state (and on the suppression list, when it is), in one sentence. Pure. */
export function nextStep(state: ContactState | undefined, listed: boolean, suppressed?: SuppressionEntry): string {
  if (suppressed) {
    const why = `the phone is on the suppression list (${suppressed.source}: ${suppressed.reason}), so no job of the store messages it`;
    return state?.status === 'sent' ? `nothing more: it was sent before, and ${why} again` : `nothing: ${why}`;
  }
  if (!listed && state?.status !== 'sent') return 'nothing: the phone is no longer in the contact list';
  const where = (s: ContactState) => (s.conversationId !== undefined ? `on its conversation ${s.conversationId}` : 'with start-whatsapp (a first message)');
  if (!state) return 'send it with start-whatsapp (a first message)';
  const resume = { retryFailed: true, retryInDoubt: false };
  switch (state.status) {
    case 'sent': {
      const owed = Object.keys(state.followups).filter((step) => !state.followups[step]);
      if (owed.length === 0) return 'nothing: it was sent';
      const doubtful = owed.filter((step) => state.followupsInDoubt?.[step]);
      return doubtful.length === owed.length
        ? `nothing: the after-send steps ${doubtful.join(', ')} are in doubt (resume --retry-in-doubt repeats them)`
        : `repeat the after-send steps not done: ${owed.filter((step) => !doubtful.includes(step)).join(', ')}`;
    }
    case 'pending':
      return `send it ${where(state)}`;
    case 'deferred':
      return `send it ${where(state)} from ${state.notBefore} on (deferred: ${state.reason})`;
    case 'failed':
      return shouldSend(state, resume) ? `send it again ${where(state)}` : `nothing: the failure is not retried (${state.error})`;
    case 'in_doubt':
      return `nothing: it is in doubt; \`outreach reconcile\` reads the platform back (or \`resume --retry-in-doubt\` resends it ${where(state)} after you checked)`;
    case 'skipped':
      return `decide it again: skipped (${state.reason}) until its cause is gone, then sent ${where(state)}`;
  }
}
