import type { TemplateDisplay } from './assumptions.js';
import type { SimClock } from './clock.js';
import type { DeliveryTimeline } from './delivery-timeline.js';
import type { Faults } from './faults.js';
import type { Store } from './model.js';
import type { ProviderState } from './provider-state.js';
import type { RequestLog } from './request-log.js';
import type { WebhookEmitter } from './webhook.js';

/**
 * Everything a route may use: the data, the clock, the faults, the provider's state, delivery statuses, the webhook,
 * the log, and how the message list shows a template message.
 */
export interface SimCore {
  readonly store: Store;
  readonly clock: SimClock;
  readonly faults: Faults;
  readonly provider: ProviderState;
  readonly delivery: DeliveryTimeline;
  readonly webhook: WebhookEmitter;
  readonly log: RequestLog;
  readonly templateDisplay: TemplateDisplay;
  /** The company the platform's token belongs to (S37). */
  readonly companyId: number;
}
