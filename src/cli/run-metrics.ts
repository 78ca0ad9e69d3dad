import type { Logger } from 'pino';
import { jobStatus, type Prepared } from '../app/index.js';
import type { CheckpointEvent, StateStore } from '../checkpoint/index.js';
import { CONTACT_STATUSES, publisher, readTextfileSample, runMetrics, type MetricsTargets } from '../metrics/index.js';
import { metricsReport } from './metrics-options.js';
import type { RequestMeter } from './request-meter.js';

/** What a run tells its metrics as it goes, and at its end. */
export interface RunMetricsSession {
  /** Each event of the send loop, once durable: first messages sent, the provider's refusals. */
  onRecorded(event: CheckpointEvent): void;
  /** The provider said a person stopped marketing messages (131050). */
  onOptedOut(): void;
  /** A pass starts sending (true), or ends and waits (`run --wait`; false): the rates asked are the job's only while it sends. */
  sending(on: boolean): void;
  /** The run ended (`ok`: not stopped, exit 0 or 1): the last values written and pushed. Nothing is published for a run that never started sending. */
  end(ok: boolean): Promise<void>;
}

/**
 * The metrics of one `run` or `resume`, published to `targets` at the end and every 15 s while it
 * sends. The contacts by status and the messaging limit's room are read the way `status --json`
 * reads them (`jobStatus`), so the gauges equal it; first messages and refusals are counted from the
 * events as they are recorded; the send rate is the requests of the last interval per second (first
 * messages, their retries and the after-send steps: what `rate.per_second` asks), by number.
 */
export function runMetricsSession(
  targets: MetricsTargets,
  run: { prepared: Prepared; store: StateStore; logger: Logger; startedAt: number; meter: RequestMeter; clock?: () => number },
): RunMetricsSession {
  const clock = run.clock ?? Date.now;
  const { job } = run.prepared;
  const campaign = job.name;
  const m = runMetrics();
  const channels = run.prepared.pool.map((c) => String(c.id));
  const single = String(run.prepared.channel.id);
  const asked = askedPerSecond(job);
  const counted = new Map<string, number>(channels.map((c) => [c, 0]));
  let since = clock();
  let on = false;
  let started = false;
  // The textfile is replaced whole: the last success a run before this one wrote is carried over until this one succeeds.
  const carried = targets.file !== undefined ? readTextfileSample(targets.file, 'outreach_run_last_success_timestamp_seconds', { campaign }) : Promise.resolve(undefined);
  let succeeded = false;
  m.optOuts.inc({ source: 'provider' }, 0);
  for (const channel of channels) m.messagesSent.inc({ campaign, channel }, 0);

  const rates = () => {
    const now = clock();
    const seconds = Math.max(0.001, (now - since) / 1000);
    for (const channel of channels) {
      const requests = run.meter.of(channel);
      m.sendRate.set({ campaign, channel }, on ? round((requests - (counted.get(channel) ?? 0)) / seconds) : 0);
      m.rateAsked.set({ campaign, channel }, on ? asked : 0);
      counted.set(channel, requests);
    }
    since = now;
  };

  const pub = publisher(m.registry, targets, {
    grouping: { campaign, command: 'run' },
    report: metricsReport(targets, run.logger),
    async refresh() {
      const earlier = await carried;
      if (!succeeded && earlier !== undefined) m.lastSuccess.set({ campaign }, earlier);
      rates();
      m.duration.set({ campaign }, round((clock() - run.startedAt) / 1000));
      const status = await jobStatus(run.prepared.jobFile, { store: run.store, clock });
      for (const s of CONTACT_STATUSES) m.contacts.set({ campaign, status: s }, status.summary.byStatus[s]);
      const company = String(job.company_id);
      if (status.messaging.room !== undefined) m.messagingLimitRemaining.set({ company }, status.messaging.room);
      if (status.messaging.limit !== undefined) m.messagingLimit.set({ company }, status.messaging.limit);
    },
  });

  return {
    onRecorded(event) {
      if (event.t === 'sent') {
        const channel = event.channel_id !== undefined ? String(event.channel_id) : single;
        m.messagesSent.inc({ campaign, channel });
      } else if (event.t === 'failed' && event.error_class !== undefined) {
        m.providerErrors.inc({ campaign, class: event.error_class });
      }
    },
    onOptedOut() {
      m.optOuts.inc({ source: 'provider' });
    },
    sending(now) {
      if (now === on) return;
      // The interval that ends here is measured at its own state (sending or waiting).
      rates();
      on = now;
      if (now && !started) {
        started = true;
        pub.start();
        void pub.publish();
      }
    },
    async end(ok) {
      await pub.stop();
      if (!started) return;
      on = false;
      if (ok) {
        succeeded = true;
        m.lastSuccess.set({ campaign }, Math.round(clock() / 1000));
      }
      await pub.publish();
    },
  };
}

/** The rate a job asks of each of its numbers, per second: rate.per_second, or per_minute's share of a second when that is less. */
export function askedPerSecond(job: Prepared['job']): number {
  return job.rate.per_minute !== undefined ? Math.min(job.rate.per_second, job.rate.per_minute / 60) : job.rate.per_second;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
