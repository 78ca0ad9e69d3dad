import type { ApiClient } from '../../src/api/index.js';

/** A start-whatsapp as it left its run (right after the run's last pacing gate): its number and the wall time. */
export interface Leaving {
  channel: number;
  at: number;
}

/** The client, telling `leaving` of each start-whatsapp the moment it is called. */
export function watchStarts(api: ApiClient, leaving: Leaving[]): ApiClient {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'startWhatsapp' || typeof value !== 'function') return value;
      return (body: { channel_id: number }, ...rest: unknown[]) => {
        leaving.push({ channel: body.channel_id, at: Date.now() });
        return (value as (...args: unknown[]) => unknown).call(target, body, ...rest);
      };
    },
  });
}
