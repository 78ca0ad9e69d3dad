/**
 * The number (channel id) a conversation is on, for a reply's window, and the company a message
 * belongs to: the platform shows neither on a webhook event or a message, so a conversation one of the
 * store's jobs started is on the number the job started it from and belongs to that job's company
 * (`StateStore.knownConversations`). A conversation no job started (the person wrote first) has no
 * known number; its company is the store's only company when it has one, else the one the receiver
 * was told (`--company`), else none (its window and its opt-out then count for every company).
 */
import type { Logger } from 'pino';
import type { KnownConversation, StateStore } from '../checkpoint/index.js';
import { reloadingMap } from './reloading-map.js';

export interface KnownConversations {
  /** What the store knew of the conversation at its last read, without reading it again. */
  get(conversationId: string): KnownConversation | undefined;
  /** The same, reading the jobs' states again first when it is not known and the last read is older than 30 s. */
  resolve(conversationId: string): Promise<KnownConversation | undefined>;
  /** The company a message of the conversation belongs to, as known now (see above). */
  companyOf(known: KnownConversation | undefined): number | undefined;
  load(): Promise<void>;
}

export function knownConversations(store: StateStore, options: { company?: number; logger?: Logger; clock?: () => number } = {}): KnownConversations {
  let only: number | undefined;
  const read = async () => {
    const [conversations, companies] = await Promise.all([store.knownConversations(), store.companies()]);
    only = companies.length === 1 ? companies[0] : undefined;
    return conversations;
  };
  const numbers = reloadingMap(read, 'the numbers of conversations', options.logger, options.clock);
  return {
    get: (id) => numbers.get(id),
    resolve: (id) => numbers.resolve(id),
    companyOf: (known) => known?.company ?? only ?? options.company,
    load: () => numbers.load(),
  };
}
