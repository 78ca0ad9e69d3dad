import type { RunConcurrency } from '../run/index.js';
import type { RunOutcome } from './run-job.js';

/** The outcome's account of the requests in flight. */
export function concurrencyOutcome(c: RunConcurrency, peakInFlight: number, bound: string | undefined): Pick<RunOutcome, 'concurrency' | 'concurrencyBound'> {
  const mean = c.controller.meanLatencyMs();
  return {
    concurrency: { mode: c.mode, limit: c.controller.limit(), peakInFlight, ...(mean !== undefined && { meanLatencyMs: Math.round(mean) }) },
    ...(bound !== undefined && { concurrencyBound: bound }),
  };
}
