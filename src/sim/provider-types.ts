import type { CodeShares } from './code-shares.js';
import type { ProviderCode } from './provider-codes.js';

/** The provider's side of the simulator's public types: its state held by the controls, and delivery statuses. */

/** What the provider holds against recipients and the account (the provider controls, S49). */
export interface SimProviderState {
  /** Phone → the code every send to it fails with. */
  forcedErrors: Record<string, ProviderCode>;
  /** Phones that stopped marketing messages: template sends to them fail 131050. */
  stoppedMarketing: string[];
  /** The spam limit (131048): reached once `sentSince` (successful wba/whatsapp sends since it was set) hits `afterSends`. */
  spamLimit: { afterSends: number; sentSince: number; reached: boolean } | null;
}

/** [min, max] in ms: a delay is drawn uniformly between them. */
export type DelayRange = readonly [min: number, max: number];

/**
 * Delivery statuses over time (S51, S52): each outbound message's fate is decided from the seed and its id when it is
 * sent, and its status moves on the simulated clock. Any field left out keeps its value (DEFAULT_DELIVERY at first).
 */
export interface SimDelivery {
  /** Share 0..1 of outbound messages that reach `delivered`. */
  delivered?: number;
  /** Share 0..1 of the delivered ones that are then `read`. */
  read?: number;
  /** Share 0..1 of outbound messages that end `failed`; delivered + failed ≤ 1, the rest stays `sent`. */
  failed?: number;
  /** Delay from the send to `delivered`. */
  deliveredAfterMs?: DelayRange;
  /** Delay from `delivered` to `read`. */
  readAfterMs?: DelayRange;
  /** Delay from the send to `failed`. */
  failedAfterMs?: DelayRange;
  /** Weights of the provider codes a failure carries (at least one above 0). */
  failureCodes?: CodeShares;
  /**
   * Per template name, its own delivered and read shares over the ones above (so an A/B test of two
   * templates has a true winner), e.g. `{ "promo_a": { "read": 0.8 }, "promo_b": { "read": 0.2 } }`.
   */
  templates?: Record<string, TemplateShares>;
}

/** A template's own delivery shares (S55). */
export interface TemplateShares {
  delivered?: number;
  read?: number;
}

/** The delivery settings in force, every field filled. */
export type ActiveDelivery = Required<SimDelivery>;

/** What becomes of one outbound message, decided when it is sent (S51). Times are sim-clock ms. */
export type DeliveryPlan =
  | { fate: 'sent' }
  | { fate: 'delivered'; deliveredAt: number; readAt: number | null }
  | { fate: 'failed'; failedAt: number; code: ProviderCode };
