import type { StateStore } from '../../checkpoint/index.js';

/**
 * The phones whose message failed at delivery with 131050 (the person stopped marketing messages
 * from this business) go on the suppression list: no job of the state folder messages them again.
 */
export async function suppressOptedOut(store: StateStore, phones: readonly string[]): Promise<void> {
  if (phones.length === 0) return;
  await store.suppress(phones.map((phone) => ({ phone, reason: 'the provider failed the message with 131050: the person stopped marketing messages', source: 'provider' as const })));
}
