import { DEFAULT_DELIVERY, type DeliveryStatus } from './assumptions.js';
import { checkCodeShares, pickWeighted, totalShare } from './code-shares.js';
import { seededRandom } from './random.js';
import type { ActiveDelivery, DelayRange, DeliveryPlan, SimDelivery } from './provider-types.js';

/** The delivery model's pure parts: settings folded and checked, a message's fate, its status at a time. */

export function defaultDelivery(): ActiveDelivery {
  return {
    ...DEFAULT_DELIVERY,
    deliveredAfterMs: [...DEFAULT_DELIVERY.deliveredAfterMs],
    readAfterMs: [...DEFAULT_DELIVERY.readAfterMs],
    failedAfterMs: [...DEFAULT_DELIVERY.failedAfterMs],
    failureCodes: { ...DEFAULT_DELIVERY.failureCodes },
    templates: {},
  };
}

/** S55: the settings for a message of `template` (its own delivered and read shares, when it has them). */
export function sharesFor(settings: ActiveDelivery, template: string | undefined): ActiveDelivery {
  const own = template === undefined ? undefined : settings.templates[template];
  if (own === undefined) return settings;
  return { ...settings, ...(own.delivered !== undefined && { delivered: own.delivered }), ...(own.read !== undefined && { read: own.read }) };
}

function share(name: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new RangeError(`delivery.${name} must be a number from 0 to 1`);
  return value;
}

function range(name: string, value: unknown): DelayRange {
  const ok =
    Array.isArray(value) &&
    value.length === 2 &&
    value.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0) &&
    (value[0] as number) <= (value[1] as number);
  if (!ok) throw new RangeError(`delivery.${name} must be [min, max] in ms, 0 ≤ min ≤ max`);
  return [value[0] as number, value[1] as number];
}

/** `partial` over `base`, checked; a bad field is a RangeError naming it. */
export function foldDelivery(base: ActiveDelivery, partial: SimDelivery): ActiveDelivery {
  if (typeof partial !== 'object' || partial === null || Array.isArray(partial))
    throw new RangeError('delivery must be an object of shares and delays');
  const next: ActiveDelivery = { ...base };
  if (partial.delivered !== undefined) next.delivered = share('delivered', partial.delivered);
  if (partial.read !== undefined) next.read = share('read', partial.read);
  if (partial.failed !== undefined) next.failed = share('failed', partial.failed);
  if (partial.deliveredAfterMs !== undefined) next.deliveredAfterMs = range('deliveredAfterMs', partial.deliveredAfterMs);
  if (partial.readAfterMs !== undefined) next.readAfterMs = range('readAfterMs', partial.readAfterMs);
  if (partial.failedAfterMs !== undefined) next.failedAfterMs = range('failedAfterMs', partial.failedAfterMs);
  if (partial.failureCodes !== undefined) {
    next.failureCodes = checkCodeShares('delivery.failureCodes', partial.failureCodes, false);
    if (totalShare(next.failureCodes) <= 0) throw new RangeError('delivery.failureCodes needs at least one code with a share above 0');
  }
  if (partial.templates !== undefined) {
    if (typeof partial.templates !== 'object' || partial.templates === null || Array.isArray(partial.templates)) throw new RangeError('delivery.templates must be an object of template name → { delivered, read }');
    next.templates = Object.fromEntries(
      Object.entries(partial.templates).map(([name, own]) => [
        name,
        {
          ...(own.delivered !== undefined && { delivered: share(`templates.${name}.delivered`, own.delivered) }),
          ...(own.read !== undefined && { read: share(`templates.${name}.read`, own.read) }),
        },
      ]),
    );
  }
  if (next.delivered + next.failed > 1 + 1e-9)
    throw new RangeError(`delivery.delivered (${next.delivered}) and delivery.failed (${next.failed}) add up to more than 1`);
  return next;
}

function delay([min, max]: DelayRange, u: number): number {
  return Math.round(min + u * (max - min));
}

/**
 * S51: the fate of one outbound message, from the seed and its id alone (five draws, always all five, so a
 * changed share never shifts another draw): delivered (then read or not), failed with a code, or stays sent.
 */
export function planDelivery(settings: ActiveDelivery, seed: number, messageId: number, createdAt: number): DeliveryPlan {
  const random = seededRandom(seed ^ Math.imul(messageId, 0x9e3779b1) ^ 0x3c6ef372);
  const [fate, readDraw, firstDelay, readDelay, codeDraw] = [random(), random(), random(), random(), random()];
  if (fate < settings.delivered) {
    const deliveredAt = createdAt + delay(settings.deliveredAfterMs, firstDelay);
    const readAt = readDraw < settings.read ? deliveredAt + delay(settings.readAfterMs, readDelay) : null;
    return { fate: 'delivered', deliveredAt, readAt };
  }
  if (fate < settings.delivered + settings.failed) {
    const code = pickWeighted(settings.failureCodes, codeDraw);
    if (code !== undefined) return { fate: 'failed', failedAt: createdAt + delay(settings.failedAfterMs, firstDelay), code };
  }
  return { fate: 'sent' };
}

/** A status change of a plan, at a sim-clock time. */
export interface Transition {
  at: number;
  status: Exclude<DeliveryStatus, 'sent'>;
}

/** The plan's changes in time order (read never before delivered). */
export function transitions(plan: DeliveryPlan): Transition[] {
  switch (plan.fate) {
    case 'sent':
      return [];
    case 'failed':
      return [{ at: plan.failedAt, status: 'failed' }];
    case 'delivered':
      return plan.readAt === null
        ? [{ at: plan.deliveredAt, status: 'delivered' }]
        : [
            { at: plan.deliveredAt, status: 'delivered' },
            { at: plan.readAt, status: 'read' },
          ];
  }
}

/** The status a plan gives at `now`, and since when (`at` is undefined while still `sent`). */
export function statusAt(plan: DeliveryPlan, now: number): { status: DeliveryStatus; at?: number } {
  const done = transitions(plan).filter((t) => t.at <= now);
  const last = done.at(-1);
  return last ? { status: last.status, at: last.at } : { status: 'sent' };
}
