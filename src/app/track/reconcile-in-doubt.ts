import { AuthError, ConnectionError, type Message, type Template } from '../../api/index.js';
import type { InDoubtState, JobStore } from '../../checkpoint/index.js';
import type { Contact } from '../../contacts/index.js';
import { contactContent, type ContactContent } from '../../plan/index.js';
import { isCampaignMessage } from './campaign-message.js';
import { contactsByPhone } from '../list/index.js';
import type { PlatformReads } from './platform-reads.js';
import type { ContactList } from '../load/index.js';

/** Our clock and the platform's may disagree by this much: messages this long before the attempt still count (A34). */
export const CLOCK_MARGIN_MS = 60_000;
/** The default settling delay: an attempt younger than this with no message found stays in doubt (the platform may still be at it). */
export const SETTLE_MINUTES = 5;

/** What `reconcile` made of the contacts in doubt. */
export interface ReconcileOutcome {
  /** Contacts in doubt when it started. */
  inDoubt: number;
  /** Found on the platform: now sent, with their ids. */
  sent: number;
  /** No message after the attempt, and the attempt older than the settling delay: now pending, safe to send. */
  pending: number;
  /** Still in doubt, each with why. */
  unresolved: Array<{ phone: string; reason: string }>;
  /** Requests made. */
  requests: number;
}

export interface ReconcileContext {
  list: ContactList;
  state: JobStore;
  reads: PlatformReads;
  now: number;
  settleMs: number;
}

interface Doubt {
  state: InDoubtState;
  /** Epoch ms from which a message counts: the attempt, less the clock margin. */
  from: number;
  content?: ContactContent;
  found?: { message: Message; conversationId: string; clientId: string };
  /** Why it cannot be told. */
  blocked?: string;
}

/**
 * Reads the platform back for every contact in doubt (A34): the conversations changed since the
 * earliest attempt, their clients' phones, and for a contact's own conversations the company's
 * messages after its attempt. A message with the campaign's content makes the contact sent; none
 * at all, once the attempt is older than the settling delay, makes it pending; anything that could
 * not be read keeps it in doubt, with why. Each verdict is recorded in the job's journal.
 */
export async function reconcileInDoubt(ctx: ReconcileContext): Promise<ReconcileOutcome> {
  const { state, reads } = ctx;
  const doubts = new Map<string, Doubt>();
  for (const s of state.states.values()) {
    if (s.status !== 'in_doubt') continue;
    const attemptAt = Date.parse(s.attemptAt ?? s.updatedAt ?? '');
    doubts.set(s.phone, { state: s, from: (Number.isNaN(attemptAt) ? ctx.now : attemptAt) - CLOCK_MARGIN_MS });
  }
  const outcome: ReconcileOutcome = { inDoubt: doubts.size, sent: 0, pending: 0, unresolved: [], requests: 0 };
  if (doubts.size === 0) return outcome;

  const requestsBefore = reads.requests;
  let blind: string | undefined;
  try {
    const templates = await contentsOf(ctx, doubts);
    await search(ctx, doubts, templates);
  } catch (err) {
    // A refused token, or a platform not reachable at all, stops the command (exit 3); nothing was recorded.
    if (err instanceof AuthError || (err instanceof ConnectionError && !err.sent && !err.aborted)) throw err;
    blind = `the platform could not be read (${messageOf(err)}); run reconcile again`;
  }
  outcome.requests = reads.requests - requestsBefore;

  const at = new Date(ctx.now).toISOString();
  for (const [phone, d] of doubts) {
    if (d.found) {
      const { message, conversationId, clientId } = d.found;
      await state.record({
        t: 'reconciled',
        phone,
        result: 'sent',
        via: d.state.via,
        action: d.state.action,
        conversation_id: conversationId,
        client_id: clientId,
        message_id: String(message.id),
        sent_at: new Date(Date.parse(message.createdAt)).toISOString(),
        at,
      });
      outcome.sent += 1;
      continue;
    }
    const age = ctx.now - (d.from + CLOCK_MARGIN_MS);
    const reason =
      d.blocked ??
      blind ??
      (age < ctx.settleMs
        ? `no message yet, but the attempt is only ${Math.max(0, Math.round(age / 1000))} s old; run reconcile again after ${Math.ceil(ctx.settleMs / 60_000)} min (--settle-minutes)`
        : undefined);
    if (reason !== undefined) {
      await state.record({ t: 'reconciled', phone, result: 'in_doubt', reason, at });
      outcome.unresolved.push({ phone, reason });
    } else {
      await state.record({ t: 'reconciled', phone, result: 'not_sent', at });
      outcome.pending += 1;
    }
  }
  return outcome;
}

/** Each contact's content from the list; the approved templates when any content is a template. */
async function contentsOf(ctx: ReconcileContext, doubts: Map<string, Doubt>): Promise<Template[]> {
  let contacts: Map<string, Contact>;
  try {
    contacts = await contactsByPhone(ctx.list, new Set(doubts.keys()));
  } catch (err) {
    for (const d of doubts.values()) d.blocked = `the contact list could not be read (${messageOf(err)}), so the message to look for is unknown`;
    return [];
  }
  let templates = false;
  for (const [phone, d] of doubts) {
    const contact = contacts.get(phone);
    if (!contact) {
      d.blocked = 'not in the contact list any more, so the message to look for is unknown';
      continue;
    }
    d.content = contactContent(contact, ctx.list.job.message);
    if (d.content.template) templates = true;
  }
  return templates ? ctx.reads.approvedTemplates() : [];
}

/** Walks the conversations changed since the earliest attempt; stops early once every contact is found. */
async function search(ctx: ReconcileContext, doubts: Map<string, Doubt>, templates: Template[]): Promise<void> {
  const open = [...doubts.values()].filter((d) => d.content && !d.blocked);
  if (open.length === 0) return;
  let waiting = open.length;
  const since = new Date(Math.min(...open.map((d) => d.from))).toISOString();
  for await (const conversation of ctx.reads.conversationsSince(since)) {
    const phone = await ctx.reads.phoneOfClient(conversation.client_id);
    if (typeof phone !== 'string' || phone === '') continue; // a client known by e-mail only: none of ours
    const d = doubts.get(asE164(phone));
    if (!d?.content || d.blocked || d.found || Date.parse(conversation.updated_at) < d.from) continue;
    const content = d.content;
    const messages = await ctx.reads.messagesSince(conversation.id, d.from);
    const match = messages.find((m) => isCampaignMessage(m, content, templates));
    if (match) {
      d.found = { message: match, conversationId: String(conversation.id), clientId: String(conversation.client_id) };
      waiting -= 1;
      if (waiting === 0) return;
    } else if (messages.some((m) => m.senderType !== 'client')) {
      // The company wrote to this contact after the attempt, but not what the job now says: the job or
      // the list may have changed since. Never call that "not sent": a second first message would follow.
      d.blocked =
        `conversation ${conversation.id} has a message from the company after the attempt that is not this campaign's as the job now reads it ` +
        '(did the job or the list change?); check it on the platform, then `resume --retry-in-doubt` only if the contact did not get the message';
    }
  }
}

/** A phone as the platform keeps it, as the list's key: its digits after a `+`. */
function asE164(phone: string): string {
  return `+${phone.replace(/\D/g, '')}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
