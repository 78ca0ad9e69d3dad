import type { Logger } from 'pino';
import type { StateStore } from '../checkpoint/index.js';
import { reloadingMap } from './reloading-map.js';

/** Client id → phone from every job's state, re-read when a client id is not known. */
export interface KnownPhones {
  get(clientId: string): string | undefined;
  load(): Promise<void>;
}

/**
 * Read at start; a client id it does not know triggers a new read, at most every 30 s, so phones
 * of a job running meanwhile are found too.
 */
export function knownPhones(store: StateStore, logger?: Logger, clock: () => number = Date.now): KnownPhones {
  const phones = reloadingMap(() => store.knownPhones(), 'phones', logger, clock);
  return { get: (clientId) => phones.getOrReload(clientId), load: () => phones.load() };
}
