import {
  DEFAULT_DELIVERY,
  PROVIDER_CODES,
  isProviderCode,
  type CodeShares,
  type DelayRange,
  type SimDelivery,
} from '../sim/index.js';
import { CliError } from './exit.js';

/** The `key=value,key=value` flags of `outreach sim`, checked into simulator options; errors name the flag. */

/** The `key=value` pairs of a flag, in order; `form` and `example` show how to write them when one is malformed. */
function pairs(flag: string, raw: string, form: string, example: string): Array<{ key: string; value: string; pair: string }> {
  const found: Array<{ key: string; value: string; pair: string }> = [];
  const seen = new Set<string>();
  for (const pair of raw.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const m = /^([^=\s]+)\s*=\s*(\S.*)$/.exec(pair);
    if (!m?.[1] || m[2] === undefined) throw new CliError(`${flag} ${raw}: write ${form} pairs separated by commas, e.g. ${example}`);
    if (seen.has(m[1])) throw new CliError(`${flag}: ${m[1]} is given twice; give each once`);
    seen.add(m[1]);
    found.push({ key: m[1], value: m[2], pair });
  }
  return found;
}

function shareOf(flag: string, pair: string, key: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new CliError(`${flag} ${pair}: give ${key} a share from 0 to 1, e.g. ${key}=0.05`);
  return value;
}

/** `--provider-errors 131026=0.05,131049=0.02`: known codes, shares 0..1, total at most 1. */
export function providerErrorShares(flag: string, raw: string): CodeShares {
  const shares: CodeShares = {};
  let total = 0;
  for (const { key, value, pair } of pairs(flag, raw, 'code=share', '131026=0.05,131049=0.02')) {
    const code = Number(key);
    if (!/^\d+$/.test(key) || !isProviderCode(code))
      throw new CliError(`${flag}: ${key} is not a provider error code the simulator knows; use one of ${PROVIDER_CODES.join(', ')}`);
    shares[code] = shareOf(flag, pair, key, value);
    total += shares[code];
  }
  if (total > 1 + 1e-9) throw new CliError(`${flag} ${raw}: the shares add up to ${total}; they must add up to 1 or less`);
  return shares;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `2s`, `1500`, `1500ms`, `1m`, `0.5h` → ms. */
function duration(flag: string, pair: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const unit = UNIT_MS[m?.[2] ?? 'ms'];
  if (!m?.[1] || unit === undefined) throw new CliError(`${flag} ${pair}: give a duration such as 1500ms, 2s, 5m or 1h`);
  return Math.round(Number(m[1]) * unit);
}

/** `2s-20s` or `5s` (always the same) → [min, max]. */
function delayRange(flag: string, pair: string, text: string): DelayRange {
  const [low, high, extra] = text.split('-');
  if (low === undefined || extra !== undefined) throw new CliError(`${flag} ${pair}: give a range such as 2s-20s, or one duration`);
  const min = duration(flag, pair, low);
  const max = high === undefined ? min : duration(flag, pair, high);
  if (min > max) throw new CliError(`${flag} ${pair}: the range ends before it starts; write the shorter delay first`);
  return [min, max];
}

const SHARE_KEYS = ['delivered', 'read', 'failed'] as const;
const DELAY_KEYS = { delivered: 'deliveredAfterMs', read: 'readAfterMs', failed: 'failedAfterMs' } as const;

function isShareKey(key: string): key is (typeof SHARE_KEYS)[number] {
  return (SHARE_KEYS as readonly string[]).includes(key);
}

/** `--delivery delivered=0.9,read=0.6,failed=0.05` (any of them; the rest keep the defaults). */
export function deliveryShares(flag: string, raw: string): SimDelivery {
  const delivery: SimDelivery = {};
  for (const { key, value, pair } of pairs(flag, raw, 'status=share', 'delivered=0.9,read=0.6,failed=0.05')) {
    if (!isShareKey(key)) throw new CliError(`${flag}: ${key} is not a delivery share; use delivered, read or failed`);
    delivery[key] = shareOf(flag, pair, key, value);
  }
  const delivered = delivery.delivered ?? DEFAULT_DELIVERY.delivered;
  const failed = delivery.failed ?? DEFAULT_DELIVERY.failed;
  if (delivered + failed > 1 + 1e-9)
    throw new CliError(`${flag} ${raw}: delivered (${delivered}) and failed (${failed}) add up to more than 1; lower one of them`);
  return delivery;
}

/** `--delivery-delays delivered=2s-20s,read=1m-30m,failed=1s-15s` (read counts from delivered). */
export function deliveryDelays(flag: string, raw: string): SimDelivery {
  const delivery: SimDelivery = {};
  for (const { key, value, pair } of pairs(flag, raw, 'status=delay', 'delivered=2s-20s,read=1m-30m,failed=1s-15s')) {
    if (!isShareKey(key)) throw new CliError(`${flag}: ${key} is not a delivery status; use delivered, read or failed`);
    delivery[DELAY_KEYS[key]] = delayRange(flag, pair, value);
  }
  return delivery;
}
