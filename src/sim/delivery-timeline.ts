import { isoZ } from './clock.js';
import { defaultDelivery, foldDelivery, planDelivery, sharesFor, transitions, type Transition } from './delivery.js';
import { MinHeap } from './min-heap.js';
import type { Store } from './model.js';
import { providerMessage } from './provider-codes.js';
import type { ActiveDelivery, DeliveryPlan, SimDelivery } from './provider-types.js';
import type { SimMessage } from './types.js';

type Due = Transition & { messageId: number };

/**
 * Delivery statuses over time without timers (S51, S53): each outbound message gets its plan when sent, its
 * changes wait in a heap, and `catchUp(now)` applies every change due by the simulated clock, in time order,
 * to the stored message and its conversation. The server calls it before every request, the state on reads.
 */
export class DeliveryTimeline {
  private settings: ActiveDelivery | null;
  private readonly plans = new Map<number, DeliveryPlan>();
  private readonly due = new MinHeap<Due>();

  constructor(
    private readonly store: Store,
    private readonly seed: number,
    initial: SimDelivery | undefined,
  ) {
    this.settings = initial === undefined ? null : foldDelivery(defaultDelivery(), initial);
  }

  /** The settings in force (a copy), or null when statuses do not move. */
  get(): ActiveDelivery | null {
    return this.settings && { ...this.settings, failureCodes: { ...this.settings.failureCodes } };
  }

  /** `partial` over the settings in force (the defaults when off) and on; null turns it off for new messages. */
  set(partial: SimDelivery | null): void {
    this.settings = partial === null ? null : foldDelivery(this.settings ?? defaultDelivery(), partial);
  }

  /** Decides the fate of a message just sent (nothing while off). */
  schedule(message: SimMessage): void {
    if (!this.settings) return;
    const plan = planDelivery(sharesFor(this.settings, message.template?.name), this.seed, message.id, message.createdAt);
    this.plans.set(message.id, plan);
    for (const t of transitions(plan)) this.due.push({ ...t, messageId: message.id });
  }

  plan(messageId: number): DeliveryPlan | undefined {
    return this.plans.get(messageId);
  }

  /** Applies every change due at or before `now`, oldest first. */
  catchUp(now: number): void {
    for (let next = this.due.peek(); next !== undefined && next.at <= now; next = this.due.peek()) {
      this.due.pop();
      this.apply(next);
    }
  }

  private apply(change: Due): void {
    const message = this.store.messages.get(change.messageId);
    const plan = this.plans.get(change.messageId);
    if (!message || !plan) return;
    message.deliveryStatus = change.status;
    if (change.status === 'read') {
      message.read = true;
      message.read_at = isoZ(change.at);
    }
    if (change.status === 'failed' && plan.fate === 'failed') message.failureReason = providerMessage(plan.code);
    message.updatedAt = change.at;
    const conversation = this.store.conversations.get(message.conversationId);
    if (conversation && conversation.updatedAt < change.at) conversation.updatedAt = change.at;
  }
}
