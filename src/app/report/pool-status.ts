import { readFile } from 'node:fs/promises';
import type { ContactState } from '../../checkpoint/index.js';
import type { Job } from '../../job/index.js';

/** A pool's number as `status` and report.html show it. */
export interface NumberStatus {
  channelId: number;
  /** Contacts sent from it (the state's, every run: a resume's included). */
  sent: number;
  /** Contacts whose last request went from it and failed. */
  failed: number;
  /** The rate it reached in the job's last run (first messages per second, from that run's summary.json). */
  reachedPerSecond?: number;
  /** Drained in the job's last run: when (ISO) and why, with the provider's words (from that run's summary.json). */
  drained?: { at: string; code: number; error: string };
}

type Drain = NonNullable<NumberStatus['drained']>;

/** What the job's last run said of a number: its rate reached and its drain. */
export interface LastRunNumber {
  reachedPerSecond?: number;
  drained?: Drain;
}

/** Per number of a pool, in the job's order: sent and failed from the state, the rate reached and a drain from the last run. Undefined for one number. Pure. */
export function numbersStatus(job: Pick<Job, 'channels'>, states: Iterable<ContactState>, lastRun: ReadonlyMap<number, LastRunNumber>): NumberStatus[] | undefined {
  if (job.channels.length < 2) return undefined;
  const counts = new Map<number, { sent: number; failed: number }>(job.channels.map((id) => [id, { sent: 0, failed: 0 }]));
  for (const s of states) {
    const c = s.channelId !== undefined ? counts.get(s.channelId) : undefined;
    if (c && (s.status === 'sent' || s.status === 'failed')) c[s.status] += 1;
  }
  return job.channels.map((id) => {
    const { drained, reachedPerSecond } = lastRun.get(id) ?? {};
    return {
      channelId: id,
      sent: counts.get(id)?.sent ?? 0,
      failed: counts.get(id)?.failed ?? 0,
      ...(reachedPerSecond !== undefined && { reachedPerSecond }),
      ...(drained && { drained }),
    };
  });
}

/** What the job's last run wrote of each number in its summary.json (`numbers[].rate_reached_per_second`, `numbers[].drained`); none when it has no such file or field. */
export async function lastRunNumbers(summaryFile: string): Promise<Map<number, LastRunNumber>> {
  const out = new Map<number, LastRunNumber>();
  const text = await readFile(summaryFile, 'utf8').catch(() => undefined);
  if (text === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return out;
  }
  const numbers = typeof parsed === 'object' && parsed !== null && 'numbers' in parsed ? parsed.numbers : undefined;
  if (!Array.isArray(numbers)) return out;
  for (const n of numbers as unknown[]) {
    if (typeof n !== 'object' || n === null) continue;
    const { channel_id: id, drained: d, rate_reached_per_second: reached } = n as { channel_id?: unknown; drained?: unknown; rate_reached_per_second?: unknown };
    if (typeof id !== 'number') continue;
    const entry: LastRunNumber = typeof reached === 'number' ? { reachedPerSecond: reached } : {};
    if (typeof d === 'object' && d !== null) {
      const { at, code, error } = d as { at?: unknown; code?: unknown; error?: unknown };
      if (typeof at === 'string' && typeof code === 'number' && typeof error === 'string') entry.drained = { at, code, error };
    }
    if (entry.drained !== undefined || entry.reachedPerSecond !== undefined) out.set(id, entry);
  }
  return out;
}

