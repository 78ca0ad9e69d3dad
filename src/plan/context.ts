/**
 * Everything the planner knows of the world beyond the contact and the job, as values: the time of
 * the decision and what the store knows of this contact. A new fact a rule needs (suppression,
 * consent, the messaging budget…) is a new field here, filled by the caller.
 */
export interface PlanContext {
  /** The time of the decision, epoch ms. */
  now: number;
  /** The contact's last inbound message known to the store (webhook, sync), epoch ms. */
  lastInboundAt?: number;
}
