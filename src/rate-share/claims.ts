/**
 * The run's part in the store's registry of senders: for each number it sends from, a claim on the
 * number's rate, renewed every `SHARE_RENEW_MS`, set to an even share of the senders the registry counts
 * (`share.ts`). Lowering: the gate slows first, the claim follows a settle window later.
 * Raising: the claim first (granted only what the others leave), the gate after. A claim the store
 * could not renew stops the gate at its lapse; the next renewal that succeeds opens it again.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RATE_SHARE_EXPIRY_MS, SHARE_RENEW_MS, SHARE_SETTLE_MS, shareUsableUntil } from './lifetime.js';
import { shareStep } from './share.js';
import type { RateShareRegistry, ShareHolder } from './types.js';

/** The run's claims, renewing until stopped. */
export interface RateShares {
  /** Stops renewing and lets the claims lapse (a settle window after the last send). Safe to call twice. */
  stop(): Promise<void>;
}

export interface RateSharesOptions {
  logger: Logger;
  /** Wall clock (epoch ms): the file store's lapses are decided on it, by every process of the folder. */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  renewEveryMs?: number;
}

/** A number the run sends from and the gate its claim moves. */
export interface SharedNumber {
  channel: number;
  gate: ShareHolder;
}

/** Claims the numbers' shares (resolving once each holds its first claim: a lone sender has the whole rate), then renews them. */
export async function shareNumbers(registry: RateShareRegistry, numbers: readonly SharedNumber[], perSecond: number, options: RateSharesOptions): Promise<RateShares> {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const every = options.renewEveryMs ?? SHARE_RENEW_MS;
  const sender = randomUUID();
  const held = new Map<number, number>(numbers.map((n) => [n.channel, 0]));

  async function claim(channel: number, want: number) {
    const at = clock();
    const seen = await registry.claimRate({ channel, sender, want, perSecond, now: at });
    return { seen, until: shareUsableUntil(at, RATE_SHARE_EXPIRY_MS) };
  }

  async function renew({ channel, gate }: SharedNumber): Promise<void> {
    const mine = held.get(channel) ?? 0;
    let { seen, until } = await claim(channel, mine);
    // Below what it held only when its row had lapsed, and then its gate had stopped already.
    gate.setShare(seen.granted, until);
    const step = shareStep(seen.granted, seen);
    if (step.kind === 'lower') {
      gate.setShare(step.to, until);
      await sleep(SHARE_SETTLE_MS);
      ({ seen, until } = await claim(channel, step.to));
      gate.setShare(seen.granted, until);
    } else if (step.kind === 'raise') {
      ({ seen, until } = await claim(channel, step.to));
      gate.setShare(seen.granted, until);
    }
    held.set(channel, seen.granted);
  }

  await Promise.all(numbers.map(renew));
  let stopped = false;
  let wake: () => void = () => undefined;
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((r) => {
        const timer = setTimeout(r, every);
        wake = () => {
          clearTimeout(timer);
          r();
        };
      });
      if (stopped) break;
      await Promise.all(
        numbers.map((n) => renew(n).catch((err: unknown) => options.logger.warn({ err, channel: n.channel }, `could not renew this run's share of number ${n.channel}'s rate; its sends pause when the claim lapses`))),
      );
    }
  })();
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopped = true;
        wake();
        await loop;
        const now = clock();
        await Promise.all(numbers.map((n) => registry.leaveRate(n.channel, sender, now).catch((err: unknown) => options.logger.warn({ err, channel: n.channel }, `could not give back this run's share of number ${n.channel}'s rate; it lapses within ${RATE_SHARE_EXPIRY_MS / 1000} s`))));
      })();
      return stopping;
    },
  };
}
