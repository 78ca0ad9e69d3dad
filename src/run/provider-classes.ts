import type { KnownProviderCode } from '../api/index.js';
import { MAX_BACKOFF_MS } from './retry-policy.js';

/**
 * What the run does about each WhatsApp provider code (shared/PROVIDER.md), as one table: the class
 * of every known code, what the class makes the run do, and how the report and `resume` treat it.
 * Pure: plain values in, plain values out; the executor reads `err.providerCode` and branches here.
 */

export type ProviderClass =
  | 'throughput'
  | 'pair_rate'
  | 'window_closed'
  | 'undeliverable'
  | 'opted_out'
  | 'marketing_limit'
  | 'bad_request'
  | 'template'
  | 'account'
  | 'other';

/** What a refusal of the class makes the run do. */
export type ProviderAction =
  /** Like a 429: pause every request, slow the limiter, send again. */
  | 'pause_all_and_retry'
  /** This contact only: wait `pairRateWaitMs` and send again on the same conversation; others go on. */
  | 'wait_and_retry_contact'
  /** Free text refused: send the job's template on the same conversation; without one, failed and not retryable. */
  | 'send_template'
  /** Failed and not retryable for this contact. */
  | 'fail'
  /** Failed, not retryable, and the phone goes on the suppression list (source: provider). */
  | 'fail_and_suppress'
  /** Deferred until `marketingLimitNotBefore`; never retried within the run. */
  | 'defer'
  /** The whole run stops (exit 3) once the requests in flight have answered. */
  | 'stop_after_in_flight'
  /** The whole run stops (exit 3). */
  | 'stop_run'
  /** No provider rule: the HTTP outcome decides, as before provider codes were read. */
  | 'as_outcome';

export interface ProviderClassInfo {
  readonly codes: readonly KnownProviderCode[];
  readonly action: ProviderAction;
  /** For people (report, summary): what happened, e.g. "the number cannot receive WhatsApp messages". */
  readonly label: string;
  /** Whether a contact that ends with this class counts toward the failure-ratio guard. */
  readonly countsTowardFailureRatio: boolean;
  /** Whether `resume` sends to the contact again; 'by_outcome' leaves it to the HTTP outcome. */
  readonly retryableByResume: boolean | 'by_outcome';
}

export const PROVIDER_CLASSES = {
  throughput: {
    codes: [130429, 80007],
    action: 'pause_all_and_retry',
    label: "the provider's message rate for this sending number was exceeded",
    countsTowardFailureRatio: true,
    retryableByResume: true,
  },
  pair_rate: {
    codes: [131056],
    action: 'wait_and_retry_contact',
    label: 'too many messages to this person in a short time',
    countsTowardFailureRatio: true,
    retryableByResume: true,
  },
  window_closed: {
    codes: [131047, 470],
    action: 'send_template',
    label: 'more than 24 hours since the person last wrote: free text refused, a template is needed',
    countsTowardFailureRatio: true,
    retryableByResume: false,
  },
  undeliverable: {
    codes: [131026],
    action: 'fail',
    label: 'the number cannot receive WhatsApp messages',
    countsTowardFailureRatio: false,
    retryableByResume: false,
  },
  opted_out: {
    codes: [131050],
    action: 'fail_and_suppress',
    label: 'the person stopped marketing messages from this business',
    countsTowardFailureRatio: false,
    retryableByResume: false,
  },
  marketing_limit: {
    codes: [131049],
    action: 'defer',
    label: "the person reached WhatsApp's limit of marketing messages for now",
    countsTowardFailureRatio: true,
    retryableByResume: true,
  },
  bad_request: {
    codes: [131008, 131009, 131051, 100],
    action: 'fail',
    label: "the provider refused the message's data (a missing or invalid parameter, or an unsupported type)",
    countsTowardFailureRatio: true,
    retryableByResume: false,
  },
  template: {
    codes: [132000, 132001, 132005, 132007, 132012, 132015, 132016],
    action: 'stop_after_in_flight',
    label: 'the provider refuses the template',
    countsTowardFailureRatio: true,
    retryableByResume: true,
  },
  account: {
    codes: [131048, 368, 131031, 131042],
    action: 'stop_run',
    label: 'the provider blocks this sending number or its account',
    countsTowardFailureRatio: true,
    retryableByResume: true,
  },
  other: {
    codes: [],
    action: 'as_outcome',
    label: 'the provider refused the message',
    countsTowardFailureRatio: true,
    retryableByResume: 'by_outcome',
  },
} as const satisfies { readonly [C in ProviderClass]: ProviderClassInfo };

type CodeOf<C extends ProviderClass> = (typeof PROVIDER_CLASSES)[C]['codes'][number];

const CLASS_OF: ReadonlyMap<number, ProviderClass> = new Map(
  (Object.keys(PROVIDER_CLASSES) as ProviderClass[]).flatMap((c) =>
    (PROVIDER_CLASSES[c].codes as readonly number[]).map((code) => [code, c] as const),
  ),
);

function isCodeOf<C extends ProviderClass>(c: C, code: number): code is CodeOf<C> {
  return providerClass(code) === c;
}

/** The description of a class as data: its codes, action, label, failure-ratio and resume rules. */
export function providerClassInfo(c: ProviderClass): ProviderClassInfo {
  return PROVIDER_CLASSES[c];
}

/** The class of a provider code; 'other' for an unknown code or none. */
export function providerClass(code: number | undefined): ProviderClass {
  return (code === undefined ? undefined : CLASS_OF.get(code)) ?? 'other';
}

/** The pair rate is about one message per 6 s to one person (resellers' figure, shared/PROVIDER.md). */
export const PAIR_RATE_MIN_WAIT_MS = 6_000;

/**
 * The wait before sending to the same person again after a 131056: 6 s, doubling with each attempt
 * (counted from 1), plus up to a quarter more of jitter, capped at MAX_BACKOFF_MS. Never below 6 s;
 * a later attempt never waits less than an earlier one, whatever the random draws.
 */
export function pairRateWaitMs(attempt: number, random: number): number {
  const exp = Math.min(MAX_BACKOFF_MS, PAIR_RATE_MIN_WAIT_MS * 2 ** Math.max(0, attempt - 1));
  const jitter = 1 + 0.25 * Math.min(1, Math.max(0, random));
  return Math.round(Math.min(MAX_BACKOFF_MS, Math.max(PAIR_RATE_MIN_WAIT_MS, exp * jitter)));
}

/** The default of `retry.marketing_limit_hours`. */
export const MARKETING_LIMIT_HOURS = 24;
/** The longest deferral after a 131049, whatever the repeats: 30 days. */
export const MARKETING_LIMIT_MAX_MS = 30 * 24 * 3_600_000;

/**
 * When a contact refused with 131049 may be sent again: `hours` after now, doubled for each earlier
 * 131049 of the same contact (`repeats` = 0 the first time), at most MARKETING_LIMIT_MAX_MS.
 */
export function marketingLimitNotBefore(now: number, hours: number, repeats: number): number {
  const wait = Math.max(0, hours) * 3_600_000 * 2 ** Math.max(0, Math.floor(repeats));
  return now + Math.min(MARKETING_LIMIT_MAX_MS, wait);
}

/** Per template code: why the provider refuses it, and what to do. */
const TEMPLATE_REASONS: { readonly [code in CodeOf<'template'>]: { why: string; fix: string } } = {
  132000: { why: 'its number of parameters does not match the job', fix: "make the job's variables match the template's placeholders" },
  132001: { why: 'it does not exist in this language or is not approved', fix: 'check its name, language and status in WhatsApp Manager' },
  132005: { why: 'its text is too long once the parameters are filled in', fix: "shorten the job's variables" },
  132007: { why: 'its content breaks a WhatsApp policy', fix: 'edit the template and have it approved again' },
  132012: { why: 'a parameter has the wrong format', fix: "give each variable the type the template expects (text, currency, date, media)" },
  132015: { why: 'paused for low quality', fix: 'resume after the pause ends (3 h, then 6 h) or switch the job to another template' },
  132016: { why: 'disabled for low quality', fix: 'switch the job to another template' },
};

/**
 * The run's stop sentence for a template refusal, e.g. `the provider refuses template promo_bf (pt_BR):
 * paused for low quality (132015); nothing more was sent; resume after …`. A code outside the table
 * says the provider's own text instead.
 */
export function templateStopMessage(code: number, template: { name: string; language: string }, providerText: string): string {
  const reason = isCodeOf('template', code) ? TEMPLATE_REASONS[code] : undefined;
  const why = reason?.why ?? (providerText.trim() || 'refused');
  const fix = reason?.fix ?? 'check the template in WhatsApp Manager';
  return `the provider refuses template ${template.name} (${template.language}): ${why} (${code}); nothing more was sent; ${fix}`;
}

/** Per account code: the run's whole stop sentence but for the code. */
const ACCOUNT_SENTENCES: { readonly [code in CodeOf<'account'>]: (code: number) => string } = {
  131048: (c) => `the provider limits this number for spam reports (${c}): check its quality rating in WhatsApp Manager before sending more`,
  368: (c) => `the provider has blocked this number for a while for policy violations (${c}): read the notice in WhatsApp Manager and wait for the block to end before sending more`,
  131031: (c) => `the provider has locked this business account (${c}): a person must have it unlocked through WhatsApp Manager before sending more`,
  131042: (c) => `the provider refuses to send for a payment problem on this business account (${c}): fix the payment method in Meta Business Suite before sending more`,
};

/** The run's stop sentence for an account refusal, with the fix; a code outside the table says the provider's own text. */
export function accountStopMessage(code: number, providerText: string): string {
  const sentence = isCodeOf('account', code) ? ACCOUNT_SENTENCES[code] : undefined;
  if (sentence !== undefined) return sentence(code);
  return `the provider stops this account (${code}): ${providerText.trim() || 'no reason given'}; check WhatsApp Manager before sending more`;
}
