/**
 * The one mapping between a message's delivery facts (what the state keeps: `DeliveryFacts`) and the
 * journal's `delivery` event (snake_case, as the file and the database hold it). `track` writes the
 * event from the facts it read, a compaction writes one event carrying a contact's whole picture, and
 * the fold reads the facts back from an event: each goes through here, so a new fact is added once.
 */
import type { ContactEvent, DeliveryFacts } from './types.js';

export type DeliveryEvent = Extract<ContactEvent, { t: 'delivery' }>;

/** The facts a `delivery` event carries. */
export function deliveryFacts(event: DeliveryEvent): DeliveryFacts {
  return {
    status: event.status,
    ...(event.delivered_at !== undefined && { deliveredAt: event.delivered_at }),
    ...(event.read_at !== undefined && { readAt: event.read_at }),
    ...(event.failed_at !== undefined && { failedAt: event.failed_at }),
    ...(event.failure_code !== undefined && { failureCode: event.failure_code }),
    ...(event.failure_reason !== undefined && { failureReason: event.failure_reason }),
  };
}

/** The `delivery` event of the phone that records `facts`, written at `at` (ISO). */
export function deliveryEvent(phone: string, facts: DeliveryFacts, at: string): DeliveryEvent {
  return {
    t: 'delivery',
    phone,
    status: facts.status,
    ...(facts.deliveredAt !== undefined && { delivered_at: facts.deliveredAt }),
    ...(facts.readAt !== undefined && { read_at: facts.readAt }),
    ...(facts.failedAt !== undefined && { failed_at: facts.failedAt }),
    ...(facts.failureCode !== undefined && { failure_code: facts.failureCode }),
    ...(facts.failureReason !== undefined && { failure_reason: facts.failureReason }),
    at,
  };
}
