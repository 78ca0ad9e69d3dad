/**
 * The number (channel id) a conversation is on, for a reply's window: the platform shows no channel
 * on a webhook event or a message, so a conversation one of the store's jobs started is on the number
 * the job started it from (`StateStore.knownConversations`: a pool's contact's number, else the job's
 * one number). A conversation no job started (the person wrote first) has no known number.
 */
import type { Logger } from 'pino';
import type { StateStore } from '../checkpoint/index.js';

export interface KnownConversations {
  /** The number when known now, without reading the store. */
  get(conversationId: string): number | undefined;
  /** The number, reading the jobs' states again first when it is not known and the last read is older than 30 s. */
  resolve(conversationId: string): Promise<number | undefined>;
  load(): Promise<void>;
}

/** How often at most the jobs' states are read again for an unknown conversation. */
const RELOAD_MS = 30_000;

export function knownConversations(store: StateStore, logger?: Logger, clock: () => number = Date.now): KnownConversations {
  let numbers = new Map<string, number>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | undefined;
  const load = async (): Promise<void> => {
    loadedAt = clock();
    try {
      numbers = await store.knownConversations();
    } catch (err) {
      logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'job states not readable for the numbers of conversations');
    }
  };
  const reload = () => (loading ??= load().finally(() => (loading = undefined)));
  return {
    load: reload,
    get: (conversationId) => numbers.get(conversationId),
    async resolve(conversationId) {
      const known = numbers.get(conversationId);
      if (known !== undefined) return known;
      if (loading) await loading;
      else if (clock() - loadedAt > RELOAD_MS) await reload();
      return numbers.get(conversationId);
    },
  };
}
