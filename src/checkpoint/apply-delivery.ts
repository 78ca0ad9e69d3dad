import { deliveryFacts, type DeliveryEvent } from './delivery-codec.js';
import type { ContactEvent, ContactState, DeliveryFacts, DeliveryStatus, SentState } from './types.js';

/**
 * The fold of what was read back from the platform after a run: `delivery` (track) and
 * `reconciled` (reconcile). Pure; apply-event.ts calls it for these two event kinds.
 */

type ReconciledEvent = Extract<ContactEvent, { t: 'reconciled' }>;
type Base = Pick<ContactState, 'phone' | 'attempts' | 'followups' | 'line' | 'followupErrors' | 'followupsInDoubt' | 'updatedAt'>;
type Known = Pick<ContactState, 'via' | 'action' | 'conversationId' | 'clientId'>;

/** Statuses only move forward: sent, then delivered, then read or failed (a read message never fails). */
const RANK: Record<DeliveryStatus, number> = { sent: 0, delivered: 1, read: 2, failed: 2 };

/** The delivery facts after a read: a status that would go back (or sideways, read ↔ failed) is ignored; times once known stay. */
export function deliveryAfter(before: DeliveryFacts | undefined, event: DeliveryEvent): DeliveryFacts {
  const next = deliveryFacts(event);
  if (!before) return next;
  if (RANK[next.status] < RANK[before.status] || (RANK[next.status] === RANK[before.status] && next.status !== before.status)) return before;
  return { ...before, ...next };
}

type SentIds = Pick<Extract<ContactEvent, { t: 'sent' }>, 'via' | 'action' | 'conversation_id' | 'client_id' | 'message_id'>;

/**
 * A contact sent: what a `sent` event and a `reconciled` one that found the message both give, in the
 * fold's key order (what either adds comes after); a client id once known is kept.
 */
export function sentState(base: Base, event: SentIds, knownClientId: string | undefined, sentAt: string): SentState {
  const clientId = event.client_id ?? knownClientId;
  return {
    ...base,
    status: 'sent',
    via: event.via,
    action: event.action,
    conversationId: event.conversation_id,
    ...(clientId !== undefined && { clientId }),
    messageId: event.message_id,
    sentAt,
  };
}

/** A sent contact after a delivery read (other states ignore it: only a sent message has a delivery). */
export function sentWithDelivery(next: SentState, event: DeliveryEvent): SentState {
  return { ...next, delivery: deliveryAfter(next.delivery, event) };
}

/**
 * A contact that is not sent after `reconciled`: found → sent (source reconciled); not there →
 * pending (safe to send), its ids kept; undecided → still in doubt, with why. Only a contact in
 * doubt moves to pending or gets the reason; a `sent` result counts whatever the status was.
 */
export function afterReconciled(before: ContactState, event: ReconciledEvent, base: Base, known: Known): ContactState {
  switch (event.result) {
    case 'sent':
      return { ...sentState(base, event, known.clientId, event.sent_at), source: 'reconciled' as const };
    case 'not_sent':
      if (before.status !== 'in_doubt') return before;
      return {
        ...base,
        ...known,
        ...(event.conversation_id !== undefined && { conversationId: event.conversation_id }),
        ...(event.client_id !== undefined && { clientId: event.client_id }),
        status: 'pending',
      };
    case 'in_doubt':
      if (before.status !== 'in_doubt') return before;
      return { ...before, ...base, unresolved: event.reason };
  }
}
