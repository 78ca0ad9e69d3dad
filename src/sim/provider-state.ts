import { PHONE_PATTERN } from './assumptions.js';
import { isProviderCode, type ProviderCode } from './provider-codes.js';
import type { SimProviderState } from './provider-types.js';

/** One phone or several, as the controls take them. */
export type Phones = string | readonly string[];

function phoneList(phones: Phones): string[] {
  const list = typeof phones === 'string' ? [phones] : [...phones];
  for (const phone of list)
    if (typeof phone !== 'string' || !PHONE_PATTERN.test(phone))
      throw new RangeError(`phone ${JSON.stringify(phone)} must be E.164: a leading + and 7 to 15 digits`);
  return list;
}

/**
 * What the provider holds against recipients and the account, set by the controls (S49): a code forced for
 * a phone, phones that stopped marketing messages, and the account's spam limit (S47). No HTTP, no clock.
 */
export class ProviderState {
  private readonly forced = new Map<string, ProviderCode>();
  private readonly stopped = new Set<string>();
  private spam: { afterSends: number; sentSince: number } | null = null;
  /** S60: a spam limit of one number (channel id). */
  private readonly spamByChannel = new Map<number, { afterSends: number; sentSince: number }>();

  /** Every send to these phones fails with `code` until cleared. */
  force(phones: Phones, code: ProviderCode): void {
    if (!isProviderCode(code)) throw new RangeError(`code ${String(code)} is not a provider code the simulator knows`);
    for (const phone of phoneList(phones)) this.forced.set(phone, code);
  }

  /** Clears the forced code of these phones, or of every phone. */
  clearForced(phones?: Phones): void {
    if (phones === undefined) this.forced.clear();
    else for (const phone of phoneList(phones)) this.forced.delete(phone);
  }

  stopMarketing(phones: Phones): void {
    for (const phone of phoneList(phones)) this.stopped.add(phone);
  }

  /** These phones (or every phone) take marketing messages again. */
  resumeMarketing(phones?: Phones): void {
    if (phones === undefined) this.stopped.clear();
    else for (const phone of phoneList(phones)) this.stopped.delete(phone);
  }

  /**
   * After `afterSends` more successful sends, every send fails 131048; null lifts the limit. With a channel
   * (S60), only that number's sends count and fail; null lifts that number's limit.
   */
  setSpamLimit(afterSends: number | null, channelId?: number): void {
    if (afterSends !== null && (!Number.isSafeInteger(afterSends) || afterSends < 0))
      throw new RangeError('afterSends must be a whole number of 0 or more, or null to lift the spam limit');
    if (channelId !== undefined) {
      if (afterSends === null) this.spamByChannel.delete(channelId);
      else this.spamByChannel.set(channelId, { afterSends, sentSince: 0 });
      return;
    }
    this.spam = afterSends === null ? null : { afterSends, sentSince: 0 };
  }

  forcedCode(phone: string): ProviderCode | undefined {
    return this.forced.get(phone);
  }

  marketingStopped(phone: string): boolean {
    return this.stopped.has(phone);
  }

  /** The account's spam limit is reached, or (S60) this number's. */
  spamLimited(channelId?: number): boolean {
    const own = channelId === undefined ? undefined : this.spamByChannel.get(channelId);
    if (own !== undefined && own.sentSince >= own.afterSends) return true;
    return this.spam !== null && this.spam.sentSince >= this.spam.afterSends;
  }

  /** A wba/whatsapp send went out (from this number): it counts towards the spam limits. */
  sent(channelId?: number): void {
    if (this.spam) this.spam.sentSince++;
    const own = channelId === undefined ? undefined : this.spamByChannel.get(channelId);
    if (own) own.sentSince++;
  }

  snapshot(): SimProviderState {
    return {
      forcedErrors: Object.fromEntries(this.forced),
      stoppedMarketing: [...this.stopped],
      spamLimit: this.spam && { ...this.spam, reached: this.spamLimited() },
    };
  }
}
