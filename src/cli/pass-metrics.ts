import type { Logger } from 'pino';
import { passMetrics, publisher, readTextfileSample, type MetricsTargets } from '../metrics/index.js';
import { metricsReport } from './metrics-options.js';

/** What a `track` or `sync` says of itself at its end: whether it succeeded (not stopped), and the phones it put on the suppression list for the provider's or a reply's opt-out. */
export interface PassReading<T> {
  succeeded(result: T): boolean;
  optOuts(result: T): { source: 'provider' | 'reply_keyword'; count: number };
}

/**
 * Runs `work` (a `track` of one job, with its `campaign`; or a `sync` of the store) and publishes its
 * metrics to `targets` every 15 s while it runs and at its end: its duration, its last success (kept
 * from an earlier one in the textfile and the Pushgateway group when this one fails), and its opt-outs.
 * The Pushgateway group is `job="outreach"` with the campaign (track) and the command.
 */
export async function withPassMetrics<T>(
  command: 'track' | 'sync',
  targets: MetricsTargets | undefined,
  context: { campaign?: string; logger: Logger; startedAt?: number; clock?: () => number },
  work: () => Promise<T>,
  reading: PassReading<T>,
): Promise<T> {
  if (targets === undefined) return work();
  const clock = context.clock ?? Date.now;
  const startedAt = context.startedAt ?? clock();
  const m = passMetrics(command);
  const labels: Record<string, string> = context.campaign !== undefined ? { campaign: context.campaign } : {};
  const carried = targets.file !== undefined ? readTextfileSample(targets.file, `outreach_${command}_last_success_timestamp_seconds`, labels) : Promise.resolve(undefined);
  let succeeded = false;
  const pub = publisher(m.registry, targets, {
    grouping: { ...labels, command },
    report: metricsReport(targets, context.logger),
    async refresh() {
      const earlier = await carried;
      if (!succeeded && earlier !== undefined) m.lastSuccess.set(labels, earlier);
      m.duration.set(labels, Math.round(clock() - startedAt) / 1000);
    },
  });
  pub.start();
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await pub.stop();
    await pub.publish();
    throw err;
  }
  await pub.stop();
  const opted = reading.optOuts(result);
  m.optOuts.inc({ source: opted.source }, opted.count);
  if (reading.succeeded(result)) {
    succeeded = true;
    m.lastSuccess.set(labels, Math.round(clock() / 1000));
  }
  await pub.publish();
  return result;
}
