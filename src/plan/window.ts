/** The 24-hour customer-service window of wba/whatsapp channels (A23). */

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** A last-inbound time further ahead of `now` than this is wrong data, not clock skew: treated as unknown. */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The later of the two known last-inbound times, or undefined when neither is known. */
export function latestInbound(...times: Array<number | undefined>): number | undefined {
  let latest: number | undefined;
  for (const t of times) if (t !== undefined && Number.isFinite(t) && (latest === undefined || t > latest)) latest = t;
  return latest;
}

/**
 * The contact's last inbound time that opens its window: the later of the list's and the store's; in a pool of
 * several numbers (`windowOfNumber`), the store's alone, which is already that of the contact's number.
 */
export function contactInbound(contact: { lastInboundAt?: number }, context: { lastInboundAt?: number; windowOfNumber?: true }): number | undefined {
  return context.windowOfNumber ? context.lastInboundAt : latestInbound(contact.lastInboundAt, context.lastInboundAt);
}

/**
 * Whether free text may go at `now`: the last inbound message is younger than 24 hours minus the
 * safety margin (strictly: at exactly that age the window counts as closed). Unknown = closed.
 */
export function isWindowOpen(lastInboundAt: number | undefined, now: number, safetyMarginMinutes: number): boolean {
  if (lastInboundAt === undefined) return false;
  const age = now - lastInboundAt;
  if (age < -FUTURE_TOLERANCE_MS) return false;
  return age < WINDOW_MS - safetyMarginMinutes * 60_000;
}
