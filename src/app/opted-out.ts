import type { StateStore } from '../checkpoint/index.js';

/**
 * THE HOOK for the suppression list (issue 12, `store.suppress`, not on this branch yet): the phones
 * whose message failed at delivery with 131050 (the person stopped marketing messages from this
 * business) must never be messaged again. At merge this becomes
 * `store.suppress(phones.map((phone) => ({ phone, reason: 'opted_out', source: 'provider' })))`.
 * Until then `track` reports them (`optedOut`) and this records nothing.
 */
export async function suppressOptedOut(store: StateStore, phones: readonly string[]): Promise<void> {
  if (phones.length === 0) return;
  void store;
}
