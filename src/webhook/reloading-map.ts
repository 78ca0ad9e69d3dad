import type { Logger } from 'pino';

/** How often at most the jobs' states are read again for a key not known. */
export const RELOAD_MS = 30_000;

/**
 * A map read from the jobs' states (`read`), read again for a key it does not know, at most every
 * RELOAD_MS, so the keys of a job running meanwhile are found too. A read that fails keeps the last
 * map and is logged (`what` names it); one read at a time.
 */
export interface ReloadingMap<K, V> {
  /** The value when known now, without reading the store. */
  get(key: K): V | undefined;
  /** The same, and a key not known starts a new read in the background (due after RELOAD_MS). */
  getOrReload(key: K): V | undefined;
  /** The value, reading again first when it is not known and a read is due. */
  resolve(key: K): Promise<V | undefined>;
  load(): Promise<void>;
}

export function reloadingMap<K, V>(read: () => Promise<Map<K, V>>, what: string, logger?: Logger, clock: () => number = Date.now): ReloadingMap<K, V> {
  let map = new Map<K, V>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  const load = async (): Promise<void> => {
    loadedAt = clock();
    try {
      map = await read();
    } catch (err) {
      logger?.warn({ err: err instanceof Error ? err.message : String(err) }, `job states not readable for ${what}`);
    }
  };
  const reload = () => (loading ??= load().finally(() => (loading = undefined)));
  const due = () => clock() - loadedAt > RELOAD_MS;
  return {
    load: reload,
    get: (key) => map.get(key),
    getOrReload(key) {
      const value = map.get(key);
      if (value === undefined && !loading && due()) void reload();
      return value;
    },
    async resolve(key) {
      const known = map.get(key);
      if (known !== undefined) return known;
      if (loading) await loading;
      else if (due()) await reload();
      return map.get(key);
    },
  };
}
