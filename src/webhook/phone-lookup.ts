/**
 * The phone of a client id, for the window store (keyed by phone). Sources, cheapest first:
 * what this process already learnt, the window store's links, a job's checkpoint (`knownPhones`),
 * then one `GET /client/{id}` per client id (concurrent asks share one request).
 * A failed look-up is logged and not remembered, so the client's next event tries again.
 */
import { NotFoundError } from '../api/index.js';
import type { Logger } from 'pino';
import type { ClientReader } from './platform.js';

export interface PhoneLookupOptions {
  api?: ClientReader;
  /** Links already stored (the window store's `phoneOf`). */
  stored?: (clientId: string) => string | undefined;
  /** Phones known from a job's checkpoint (a contact's client id). */
  knownPhones?: (clientId: string) => string | undefined;
  logger?: Logger;
}

export interface PhoneLookup {
  /** The phone when known without a request. */
  known(clientId: string): string | undefined;
  /** The phone, asking the platform once per client id when needed; undefined when unknowable. */
  resolve(clientId: string): Promise<string | undefined>;
  readonly stats: { requests: number; failures: number };
}

export function createPhoneLookup(options: PhoneLookupOptions): PhoneLookup {
  const cache = new Map<string, string | null>();
  const inFlight = new Map<string, Promise<string | undefined>>();
  const stats = { requests: 0, failures: 0 };

  function known(clientId: string): string | undefined {
    const cached = cache.get(clientId);
    if (cached !== undefined) return cached ?? undefined;
    const phone = options.stored?.(clientId) ?? options.knownPhones?.(clientId);
    if (phone) cache.set(clientId, phone);
    return phone || undefined;
  }

  async function ask(api: ClientReader, clientId: string): Promise<string | undefined> {
    stats.requests += 1;
    try {
      const client = await api.getClient(clientId);
      const phone = typeof client.phone === 'string' ? comparablePhone(client.phone) : null;
      cache.set(clientId, phone);
      return phone ?? undefined;
    } catch (err) {
      if (err instanceof NotFoundError) {
        cache.set(clientId, null);
        return undefined;
      }
      stats.failures += 1;
      options.logger?.warn(
        { clientId, err: err instanceof Error ? err.message : String(err) },
        'phone look-up failed; the next event of this client tries again',
      );
      return undefined;
    }
  }

  return {
    known,
    stats,
    resolve(clientId) {
      if (cache.has(clientId)) return Promise.resolve(cache.get(clientId) ?? undefined);
      const phone = known(clientId);
      if (phone || !options.api) return Promise.resolve(phone);
      let running = inFlight.get(clientId);
      if (!running) {
        running = ask(options.api, clientId).finally(() => inFlight.delete(clientId));
        inFlight.set(clientId, running);
      }
      return running;
    },
  };
}

/**
 * The platform's phone as the contacts' key (E.164): spaces, dashes, dots and brackets a person may
 * have typed are dropped (`+55 (11) 98765-0001` → `+5511987650001`); empty is no phone.
 */
export function comparablePhone(raw: string): string | null {
  const phone = raw.replace(/[\s().-]/g, '');
  return phone === '' ? null : phone;
}
