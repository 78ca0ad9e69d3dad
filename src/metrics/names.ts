/**
 * Every metric outreach exposes, by name, with its help and labels: one home for the names
 * (Prometheus conventions: counters end in `_total`, times in `_seconds`, no label ever carries a
 * phone, a name or a message). The job's name is the label `campaign`: `job` and `instance` are the
 * labels Prometheus gives a scrape target or a Pushgateway group. docs/metrics.md is the reference.
 */
import { Counter, Gauge, Registry } from 'prom-client';

/** A contact's status, as `status --json` counts them: the values of `outreach_contacts`' label `status`. */
export const CONTACT_STATUSES = ['sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'pending'] as const;
export type ContactStatusLabel = (typeof CONTACT_STATUSES)[number];

/**
 * What became of one delivery to the webhook receiver: recorded (`accepted`), a message already
 * recorded (`duplicate`), refused for its signature (`bad_signature`), not a chat.message or too
 * large (`invalid`), not stored (`failed`: the platform does not retry, `sync` recovers it), or
 * kept in the spool while the store is down (`spooled`).
 */
export const DELIVERY_RESULTS = ['accepted', 'duplicate', 'bad_signature', 'invalid', 'failed', 'spooled'] as const;
export type DeliveryResult = (typeof DELIVERY_RESULTS)[number];

/** Where an opt-out came from: a reply with an opt-out keyword (webhook, sync), or the provider's 131050 (run, track). */
export type OptOutSource = 'reply_keyword' | 'provider';

/** A run's (`run`, `resume`) metrics, in a registry of their own. */
export interface RunMetrics {
  readonly registry: Registry;
  readonly contacts: Gauge<'campaign' | 'status'>;
  readonly messagesSent: Counter<'campaign' | 'channel'>;
  readonly providerErrors: Counter<'campaign' | 'class'>;
  readonly sendRate: Gauge<'campaign' | 'channel'>;
  readonly rateAsked: Gauge<'campaign' | 'channel'>;
  readonly lastSuccess: Gauge<'campaign'>;
  readonly duration: Gauge<'campaign'>;
  readonly messagingLimitRemaining: Gauge<'company'>;
  readonly messagingLimit: Gauge<'company'>;
  readonly optOuts: Counter<'source'>;
}

export function runMetrics(): RunMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    contacts: contactsIn(registers),
    messagesSent: new Counter({
      name: 'outreach_messages_sent_total',
      help: "First messages the platform accepted in this run, by the number (channel id) they went from.",
      labelNames: ['campaign', 'channel'],
      registers,
    }),
    providerErrors: new Counter({
      name: 'outreach_provider_errors_total',
      help: "The WhatsApp provider's refusals met in this run, by class (throughput, undeliverable, opted_out, template, account, ...).",
      labelNames: ['campaign', 'class'],
      registers,
    }),
    sendRate: new Gauge({
      name: 'outreach_send_rate_per_second',
      help: "Requests sent from the number per second over the last interval (first messages, their retries, after-send steps: what rate.per_second counts); 0 once the run has ended.",
      labelNames: ['campaign', 'channel'],
      registers,
    }),
    rateAsked: new Gauge({
      name: 'outreach_rate_asked_per_second',
      help: "The job's rate.per_second for the number while the run sends (0 once the run has ended or while it waits).",
      labelNames: ['campaign', 'channel'],
      registers,
    }),
    lastSuccess: new Gauge({
      name: 'outreach_run_last_success_timestamp_seconds',
      help: 'When a run of the job last ended without being stopped (exit 0 or 1), in Unix seconds; set only by a run that succeeded.',
      labelNames: ['campaign'],
      registers,
    }),
    duration: new Gauge({
      name: 'outreach_run_duration_seconds',
      help: 'How long the last run of the job took (so far, while it runs), in seconds.',
      labelNames: ['campaign'],
      registers,
    }),
    ...limitsIn(registers),
    optOuts: optOutsIn(registers),
  };
}

/** The webhook receiver's metrics (and a long-running console's), served at GET /metrics. */
export interface ReceiverMetrics {
  readonly registry: Registry;
  readonly deliveries: Counter<'result'>;
  readonly optOuts: Counter<'source'>;
  readonly storeUp: Gauge;
  readonly healthy: Gauge;
}

export function receiverMetrics(): ReceiverMetrics {
  const registry = new Registry();
  const registers = [registry];
  const deliveries = new Counter({
    name: 'outreach_webhook_events_total',
    help: 'Deliveries to the webhook receiver, by what became of them (accepted, duplicate, bad_signature, invalid, failed, spooled).',
    labelNames: ['result'],
    registers,
  });
  // Every result is a series from the start: a rate() over a result never seen before is 0, not absent.
  for (const result of DELIVERY_RESULTS) deliveries.inc({ result }, 0);
  const optOuts = optOutsIn(registers);
  optOuts.inc({ source: 'reply_keyword' }, 0);
  return {
    registry,
    deliveries,
    optOuts,
    storeUp: storeUpIn(registers),
    healthy: new Gauge({
      name: 'outreach_webhook_healthy',
      help: 'Whether the receiver can take events (GET /healthz answers 200: recording, or spooling while the store is down): 1 yes, 0 no.',
      registers,
    }),
  };
}

/** A one-shot command's own end (`track`, `sync`): when it last succeeded and how long it took. */
export interface PassMetrics {
  readonly registry: Registry;
  /** The label `campaign` for `track` (per job); none for `sync` (the whole store). */
  readonly lastSuccess: Gauge<string>;
  readonly duration: Gauge<string>;
  readonly optOuts: Counter<'source'>;
}

/** `outreach_<command>_last_success_timestamp_seconds` and `outreach_<command>_duration_seconds`. */
export function passMetrics(command: 'track' | 'sync'): PassMetrics {
  const registry = new Registry();
  const registers = [registry];
  const labelNames = command === 'track' ? ['campaign'] : [];
  return {
    registry,
    lastSuccess: new Gauge({
      name: `outreach_${command}_last_success_timestamp_seconds`,
      help: `When \`outreach ${command}\` last ended without being stopped, in Unix seconds; set only by one that succeeded.`,
      labelNames,
      registers,
    }),
    duration: new Gauge({ name: `outreach_${command}_duration_seconds`, help: `How long the last \`outreach ${command}\` took, in seconds.`, labelNames, registers }),
    optOuts: optOutsIn(registers),
  };
}

/** A long-running `outreach console`'s metrics, served at its GET /metrics: every job of the store, read as `status` reads it. */
export interface ConsoleMetrics {
  readonly registry: Registry;
  readonly contacts: Gauge<'campaign' | 'status'>;
  readonly messagingLimitRemaining: Gauge<'company'>;
  readonly messagingLimit: Gauge<'company'>;
  readonly running: Gauge<'campaign'>;
  readonly storeUp: Gauge;
}

export function consoleMetrics(): ConsoleMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    contacts: contactsIn(registers),
    ...limitsIn(registers),
    running: new Gauge({
      name: 'outreach_job_running',
      help: 'Whether a run (run, resume, track) holds the job now, as `outreach status` says: 1 yes, 0 no.',
      labelNames: ['campaign'],
      registers,
    }),
    storeUp: storeUpIn(registers),
  };
}

function contactsIn(registers: Registry[]): Gauge<'campaign' | 'status'> {
  return new Gauge({
    name: 'outreach_contacts',
    help: "The job's contacts by status, as `outreach status --json` counts them (a request in flight is in none).",
    labelNames: ['campaign', 'status'],
    registers,
  });
}

function limitsIn(registers: Registry[]): { messagingLimitRemaining: Gauge<'company'>; messagingLimit: Gauge<'company'> } {
  return {
    messagingLimitRemaining: new Gauge({
      name: 'outreach_messaging_limit_remaining',
      help: "Places left in the company's messaging limit (rolling 24 hours) across every job and process of the store.",
      labelNames: ['company'],
      registers,
    }),
    messagingLimit: new Gauge({
      name: 'outreach_messaging_limit',
      help: "The messaging limit the job sets (limits.daily_unique_recipients): unique recipients outside their window per rolling 24 hours.",
      labelNames: ['company'],
      registers,
    }),
  };
}

function storeUpIn(registers: Registry[]): Gauge {
  return new Gauge({ name: 'outreach_store_up', help: 'Whether the store (state folder or database) could be used at the last check: 1 yes, 0 no.', registers });
}

function optOutsIn(registers: Registry[]): Counter<'source'> {
  return new Counter({
    name: 'outreach_optouts_total',
    help: 'Phones put on the suppression list because the person opted out, by source (reply_keyword, provider).',
    labelNames: ['source'],
    registers,
  });
}
