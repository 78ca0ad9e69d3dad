import type { Logger } from 'pino';
import type { StateStore } from '../checkpoint/index.js';

/** Client id → phone from every job's state, re-read when a client id is not known. */
export interface KnownPhones {
  get(clientId: string): string | undefined;
  load(): Promise<void>;
}

/** How often at most the jobs' states are read again for an unknown client id. */
const RELOAD_MS = 30_000;

/**
 * Read at start; a client id it does not know triggers a new read, at most every 30 s, so phones
 * of a job running meanwhile are found too.
 */
export function knownPhones(store: StateStore, logger?: Logger, clock: () => number = Date.now): KnownPhones {
  let phones = new Map<string, string>();
  let loadedAt = 0;
  let loading: Promise<void> | undefined;
  const load = async (): Promise<void> => {
    loadedAt = clock();
    try {
      phones = await store.knownPhones();
    } catch (err) {
      logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'job states not readable for phones');
    }
  };
  const reload = () => (loading ??= load().finally(() => (loading = undefined)));
  return {
    load: reload,
    get(clientId) {
      const phone = phones.get(clientId);
      if (phone === undefined && !loading && clock() - loadedAt > RELOAD_MS) void reload();
      return phone;
    },
  };
}
