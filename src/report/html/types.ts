import type { ContactStatus } from '../../checkpoint/types.js';

/** A count over time: one bar per bucket starting at `start` (ISO). */
export interface TimeBucket {
  start: string;
  count: number;
}

/** Failures of one reason: where (the send, or the delivery after it), the provider's class and code. */
export interface FailureGroup {
  stage: 'send' | 'delivery';
  /** The provider's class (`undeliverable`, `opted_out`, …), `other` when no known code. */
  className: string;
  code: number | null;
  /** For people: what the class means. */
  label: string;
  count: number;
  example: string;
}

/** Everything report.html shows, as plain values (app/ gathers them, the page only draws). */
export interface HtmlReportData {
  job: string;
  /** ISO time the page was made. */
  generatedAt: string;
  /** The IANA zone the page shows its times in (named beside each); the data keep ISO 8601. */
  zone: string;
  /** The locale of the page's figures and times (pt-BR: 4.521, 28/11/2026, 09:00); none: grouped as in English, dates year first. */
  locale?: string;
  total: number;
  byStatus: Record<ContactStatus, number>;
  funnel: { sent: number; delivered: number; read: number; replied: number; failed: number; tracked: number };
  /**
   * Sends (first messages accepted) per bucket, against the most sends the job's rate allows per bucket:
   * its requests per bucket (`requestsPerBucket`) over the requests each send takes at the least
   * (`requestsPerSend`: the message and the after-send steps). `per` names the bucket (`second`, `5 minutes`).
   */
  sends: { buckets: TimeBucket[]; per: string; limitPerBucket: number; requestsPerBucket: number; requestsPerSend: number };
  rejects: { total: number; byReason: Array<{ reason: string; count: number; examples: Array<{ line: string; phone: string; detail: string }> }>; problem?: string };
  failures: FailureGroup[];
  /** Deferred contacts, by reason. */
  deferred: Array<{ reason: string; count: number }>;
  /** The job's contacts on the suppression list (any source: by hand, import, STOP reply, 131050 at send or delivery), each once. */
  suppressed: number;
  replies: { buckets: TimeBucket[]; per: string };
  /** Contacts in doubt, with what a person needs to check them on the platform. */
  inDoubt: Array<{ phone: string; line?: number; conversationId?: string; clientId?: string; error: string }>;
  /** In-doubt contacts not listed (the table shows the first ones). */
  inDoubtMore: number;
  /** An experiment: each arm's test counts and rate (with its 95 % interval), and the decision once made. */
  experiment?: {
    metric: string;
    arms: Array<{ arm: string; sent: number; delivered: number; read: number; replied: number; rate: number; low: number; high: number }>;
    decision?: { winner: string; by: string; pValue: number; decidedAt: string };
    restWaiting: number;
  };
  /** The jobs that follow this one up, with their numbers and their own page. */
  followUps?: Array<{ job: string; who: string; sent: number; delivered: number; read: number; replied: number; page: string }>;
  /** A pool of numbers: per number, contacts sent and failed, the rate it reached in the last run, and when and why it was drained in it. */
  numbers?: Array<{ channelId: number; sent: number; failed: number; reachedPerSecond?: number; drained?: { at: string; code: number; error: string } }>;
}
