/**
 * The number (channel id) a conversation is on, for a reply's window: the platform shows no channel
 * on a webhook event or a message, so a conversation one of the store's jobs started is on the number
 * the job started it from (`StateStore.knownConversations`: a pool's contact's number, else the job's
 * one number). A conversation no job started (the person wrote first) has no known number.
 */
import type { Logger } from 'pino';
import type { StateStore } from '../checkpoint/index.js';
import { reloadingMap } from './reloading-map.js';

export interface KnownConversations {
  /** The number when known now, without reading the store. */
  get(conversationId: string): number | undefined;
  /** The number, reading the jobs' states again first when it is not known and the last read is older than 30 s. */
  resolve(conversationId: string): Promise<number | undefined>;
  load(): Promise<void>;
}

export function knownConversations(store: StateStore, logger?: Logger, clock: () => number = Date.now): KnownConversations {
  const numbers = reloadingMap(() => store.knownConversations(), 'the numbers of conversations', logger, clock);
  return { get: (id) => numbers.get(id), resolve: (id) => numbers.resolve(id), load: () => numbers.load() };
}
