/**
 * Opt-out and opt-in replies: an inbound message whose whole text is a keyword (keywords.ts) puts
 * the phone on the suppression list (source `reply_keyword`), or takes a keyword's entry off it.
 * Entries made by hand, by an import or by the provider are never taken off by a reply. The entry's
 * time is the message's, so a STOP that arrives after a later START does not suppress again.
 */
import type { Logger } from 'pino';
import type { RecordedEvent, StateStore } from '../checkpoint/index.js';
import { classifyInbound, type InboundIntent, type InboundKeywords } from './keywords.js';

export interface KeywordOutcome {
  intent: InboundIntent;
  phone: string;
  /** The list changed: the phone went on it (opt-out) or came off it (opt-in). */
  changed: boolean;
}

/** Acts on one newly recorded message; undefined when it is no keyword, or its phone is unknown (logged). */
export async function applyKeywordReply(
  store: StateStore,
  keywords: InboundKeywords,
  event: RecordedEvent,
  phone: string | undefined,
  logger: Logger,
): Promise<KeywordOutcome | undefined> {
  if (event.direction !== 'inbound' || event.content === undefined) return undefined;
  const intent = classifyInbound(event.content, keywords);
  if (intent === undefined) return undefined;
  if (phone === undefined) {
    logger.error(
      { clientId: event.client_id, messageId: event.message_id, intent },
      'an opt-out or opt-in reply came from a client whose phone is unknown; add it with `outreach suppress add` (or remove it) by hand',
    );
    return undefined;
  }
  // The list of the message's company (a message of no known company goes on every company's list).
  const list = event.company_id !== undefined ? store.account(event.company_id) : store;
  if (intent === 'opt_out') {
    const reason = `replied "${clip(event.content.trim())}"`;
    const result = await list.suppress([{ phone, reason, source: 'reply_keyword', at: event.created_at }]);
    const changed = result.added.length > 0;
    // A phone already on the list (by hand, by the webhook, by an earlier sync) is not news.
    if (changed) logger.info({ phone, messageId: event.message_id }, `opt-out reply: ${phone} suppressed`);
    else logger.debug({ phone, messageId: event.message_id }, `opt-out reply: ${phone} was already on the suppression list`);
    return { intent, phone, changed };
  }
  const removed = await list.unsuppress([phone], { onlySource: 'reply_keyword', at: event.created_at });
  const changed = removed.length > 0;
  if (changed) logger.info({ phone, messageId: event.message_id, removed: true }, `opt-in reply: ${phone} taken off the suppression list`);
  else logger.debug({ phone, messageId: event.message_id, removed: false }, `opt-in reply: ${phone} was not on the list by a reply`);
  return { intent, phone, changed };
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
