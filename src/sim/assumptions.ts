/**
 * Every server-side choice the API document leaves "not shown", in one place.
 * Numbers A1..A32 are those of docs/assumptions.md; S1.. are the simulator's own finer choices
 * (listed in the simulator's report so they can be added to docs/assumptions.md).
 */

import type { ProviderCode } from './provider-codes.js';

/**
 * S37: the company of the simulated platform's token (A18: ids are integers), 1 unless the simulator is
 * started for another (`companyId`: one simulator a platform account); any other companyId answers 404.
 */
export const COMPANY_ID = 1;

/** A1: success status of sends, stage, status, take-over, client update, client tags, values. */
export const STATUS_OK = 200;
/** A2 (tags), custom fields (documented), S1 (clients): a created record answers 201. */
export const STATUS_CREATED = 201;
/** A21, S2: malformed JSON, a body that is not an object, a missing or mistyped field → 422. */
export const STATUS_INVALID = 422;
/** A3, A7, A22, A27: a provider refusal or an injected send failure. */
export const STATUS_SEND_FAILED = 502;
/** A20: over the rate limit, nothing done. */
export const STATUS_RATE_LIMITED = 429;
/** A19: missing or wrong token. */
export const STATUS_UNAUTHENTICATED = 401;
export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';
/** A21: unknown route, conversation, client, field or tag. */
export const STATUS_NOT_FOUND = 404;
/** S3: a known path with another method answers 405 with the failure envelope. */
export const STATUS_METHOD_NOT_ALLOWED = 405;
/** S4: a body above this many bytes answers 413 with the failure envelope. */
export const MAX_BODY_BYTES = 1_048_576;
export const STATUS_TOO_LARGE = 413;

/** A27: channel `status` 1 is active; any other status refuses every send (502, A3 / A7 shape, S29). */
export const ACTIVE_CHANNEL_STATUS = 1;

/** A9: conversation statuses; `automated` is documented. */
export const CONVERSATION_STATUSES = ['automated', 'open', 'pending', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
/** Documented: start-whatsapp creates conversations as `automated`. */
export const STARTED_CONVERSATION_STATUS: ConversationStatus = 'automated';
/** S5: a conversation an inbound message has to create (none open for the client) starts as `open`. */
export const INBOUND_CONVERSATION_STATUS: ConversationStatus = 'open';
/** A10: statuses that count as "open" for reuse (everything but closed). */
export function isOpenStatus(status: ConversationStatus): boolean {
  return status !== 'closed';
}

/** A23: the free-text window after the client's last inbound message. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** A28: message listing page size. */
export const MESSAGES_DEFAULT_LIMIT = 50;
export const MESSAGES_MAX_LIMIT = 200;
/** A12, A13: conversation and client listings. */
export const PAGE_DEFAULT_SIZE = 50;
export const PAGE_MAX_SIZE = 200;

/** A29: text limit (start-whatsapp `text`, messages `content`). */
export const MAX_TEXT_LENGTH = 4096;

/**
 * S6: a phone is E.164: `+`, a non-zero first digit, 7 to 15 digits in all.
 * Anything else is a 422 on start-whatsapp, client create and client update.
 */
export const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;
/** S21: a client's email must look like one (422 otherwise); a phone belongs to one client only (422 on a duplicate). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** S7: `language` must have the documented form `xx_XX` (422 otherwise); a well-formed unknown one is a refusal (A22). */
export const LANGUAGE_PATTERN = /^[a-z]{2}_[A-Z]{2}$/;
/** Documented content types (A6); a full MIME type is `type/subtype`. */
export const MEDIA_CONTENT_TYPES = ['image', 'video', 'audio', 'document'] as const;
export const MIME_PATTERN = /^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/i;
/** S8: a custom-field key is lower snake case; a new field's `type` defaults to `text`. */
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;
export const DEFAULT_FIELD_TYPE = 'text';

/** A25: message fields of API sends and inbound messages. */
export const OUTBOUND_SENDER_TYPE = 'user';
export const INBOUND_SENDER_TYPE = 'client';
export const OUTBOUND_DELIVERY_STATUS = 'sent';
/**
 * S25: an inbound message goes into the client's newest open conversation (on the channel given, if one is),
 * else into a new one on the given channel, else (S39) on this channel.
 */
export const DEFAULT_INBOUND_CHANNEL_ID = 10;
/** A25: the deliveryStatus values; an outbound message moves sent → delivered → read, or sent → failed (S51). */
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** S9: an inbound message is stored with deliveryStatus `delivered`. */
export const INBOUND_DELIVERY_STATUS = 'delivered';
/** S10: a template send is stored with contentType `template` and its rendered text as body/content. */
export const TEMPLATE_CONTENT_TYPE = 'template';
/**
 * S54: how the message list shows a template message (the document does not say): `full` is its components'
 * texts one a line (header, body, footer, each button's label), `body` is its body's text alone. Default `full`.
 */
export const TEMPLATE_DISPLAYS = ['full', 'body'] as const;
export type TemplateDisplay = (typeof TEMPLATE_DISPLAYS)[number];
export const DEFAULT_TEMPLATE_DISPLAY: TemplateDisplay = 'full';
/** A25: client_type of created clients. */
export const DEFAULT_CLIENT_TYPE = 'pf';

/**
 * S52: delivery statuses over time, when on (`SimOptions.delivery`, `--delivery`): what looks like a real campaign.
 * Of all outbound messages 93% are delivered and 4% fail (the other 3% stay `sent`, like a recipient who blocked
 * the business); 60% of the delivered are read. Delays (uniform, ms): delivered 2-20 s after the send, read 1-30 min
 * after delivery, failed 1-15 s after the send. A failure carries 131026, 131049 or 131050 in the ratio 6:3:1.
 */
export const DEFAULT_DELIVERY = {
  delivered: 0.93,
  read: 0.6,
  failed: 0.04,
  deliveredAfterMs: [2_000, 20_000],
  readAfterMs: [60_000, 1_800_000],
  failedAfterMs: [1_000, 15_000],
  failureCodes: { 131026: 0.6, 131049: 0.3, 131050: 0.1 },
} as const;

/** Webhook (documented: 10 s timeout, no retry); the timeout is SimOptions.webhookTimeoutMs, this by default. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_EVENT = 'chat.message';
export const SIGNATURE_HEADER = 'x-service-signature';

/** A20, S11: the 429 answer's message; Retry-After is whole seconds until the window frees, at least 1. */
export const RATE_LIMITED_MESSAGE = 'Too Many Attempts.';
/** S12: the rate limit is a sliding one-second window over accepted API requests (401/404 included, /__sim/ excluded). */
export const RATE_WINDOW_MS = 1000;

/** S13: how many request-log entries and webhook deliveries are kept; the oldest half is dropped beyond it. */
export const DEFAULT_REQUEST_LOG_LIMIT = 200_000;
export const WEBHOOK_LOG_LIMIT = 100_000;

/** Control routes for tests, outside the API's namespace (no auth, no faults, not logged). */
export const CONTROL_PREFIX = '/__sim/';

/**
 * A3, A27, S34: the platform's own refusals, carried in `meta.reason` of a start-whatsapp 502 and (as text)
 * in `message` of a messages / wba-send-template 502. They carry no provider code.
 */
export const PLATFORM_REFUSALS = {
  channel_inactive: 'The channel is inactive; the provider refused the message.',
  web_session_down: 'The web-session service is unavailable.',
  injected_failure: 'The provider failed to deliver the message (injected fault).',
} as const;
export type PlatformRefusalReason = keyof typeof PLATFORM_REFUSALS;

/**
 * A22, A23, S42: the provider's refusals the platform passes on unchanged, in the provider's form
 * `(#code) Title.` (S41), with the code of each. `provider_error` (S43) is any other code: forced for a phone,
 * the spam limit, marketing stopped, or drawn from `providerErrors`.
 */
export const PROVIDER_REFUSAL_CODES = {
  outside_window: 131047,
  template_not_found: 132001,
  template_not_approved: 132001,
  template_parameters: 132000,
} as const satisfies Record<string, ProviderCode>;
export type ProviderRefusalReason = keyof typeof PROVIDER_REFUSAL_CODES | 'provider_error';
/** S42: the detail after a 131047's title. */
export const OUTSIDE_WINDOW_DETAIL = 'more than 24 hours have passed since the recipient last replied; only a template can be sent';

/** S34 and S43: every `meta.reason` of a start-whatsapp 502. */
export type RefusalReason = PlatformRefusalReason | ProviderRefusalReason;

/**
 * Choices with no constant of their own (the code that makes each cites it):
 * - S26 start-whatsapp leaves an existing client's name and lastname as they are (found by phone, not updated);
 *   a reused conversation keeps its topic and pipeline.
 * - S27 a message into a closed conversation is sent and leaves its status unchanged.
 * - S28 `client_message_id` is stored and echoed, never used to deduplicate.
 * - S29 an inactive channel refuses messages and wba-send-template too (502, A7 / A22 shape).
 * - S30 a field sent as JSON null counts as absent (so `file_url: null` on wba is not a 422).
 * - S31 message records: `updatedAt` = `createdAt` until a delivery-status change (S53), `reply_to_message_id` = `reply_to_id` or 0, `edited_at` null,
 *   `call` = {direction: '', outcome: '', duration: 0}, `reactions` [], `file_type` = the media content type.
 * - S32 per_page above 200 is capped at 200 (like A28's limit); page or per_page below 1 is a 422.
 * - S33 the 401 check comes after route matching: an unknown path is a 404 even without a token.
 * - S35 wba-send-template on a `ww` conversation is a 422 (like start-whatsapp's template on `ww`).
 * - S36 `reply_to_id` of POST messages must be a message of the same conversation, else 422.
 * - S38 an inbound message's `senderId` is the client's id (API sends have null, A25).
 * - S40 a webhook delivery does not follow redirects: a 3xx is an undelivered attempt recorded with its status.
 *
 * The provider (../shared/PROVIDER.md) behind wba/whatsapp channels:
 * - S41 provider refusals are `(#code) Title.` (`providerMessage` in provider-codes.ts, whose table holds every code
 *   and title), optionally followed by a detail in parentheses; titles are the provider's where known, else plausible.
 * - S42 the refusals the simulator already made carry codes (PROVIDER_REFUSAL_CODES above): free text outside the
 *   window 131047 (never 470: it is in the table for injection only), a missing, unapproved or wrong-language template
 *   132001, wrong variables 132000. The platform's own refusals (PLATFORM_REFUSALS) carry none.
 * - S43 start-whatsapp's `meta.reason` is `provider_error` for every code not tied to a reason of S42 (forced, spam
 *   limit, marketing stopped, `providerErrors`); the code itself is only in `message`.
 * - S44 provider codes (forced, spam limit, marketing stopped, `providerErrors`) apply to wba/whatsapp sends only;
 *   ww sends are refused only by `wwDown` and `failRate`.
 * - S45 a send is decided in this order (`decideSend` in rules/send-decision.ts): inactive channel, web session down
 *   (ww), the phone's forced code, the account's spam limit, the message's own refusal (template, window), marketing
 *   stopped (templates), `providerErrors`, `failRate`. Random draws happen only when the order reaches them.
 * - S46 a phone that stopped marketing messages gets 131050 on every template send, whatever the template's
 *   category (the provider refuses MARKETING ones only); free text and media in the window still go.
 * - S47 the spam limit counts successful wba/whatsapp sends from the moment it is set; once it reaches `afterSends`
 *   every wba/whatsapp send fails 131048 until it is lifted.
 * - S48 `providerErrors` is one seeded draw per wba/whatsapp send that reaches it (its own random stream), the
 *   codes' shares laid end to end in ascending code order (`codeAt` in code-shares.ts); setting it replaces the map.
 * - S49 the provider controls: a forced code lasts until cleared; phones must be E.164 (RangeError in process, 422 over
 *   /__sim/provider/*); the state lives in memory only (provider-state.ts).
 * - S50 latency jitter: each API request's latency is drawn uniformly from latencyMs ± latencyJitterMs, rounded to whole
 *   ms and never below 0 (`jitteredLatency` in faults.ts), one seeded draw per request that is not refused by the rate
 *   limit or dropped before processing, in arrival order; it is recorded as the log entry's `latencyMs`.
 * - S51 delivery statuses move only when delivery is on (SimOptions.delivery, setDelivery, POST /__sim/delivery,
 *   --delivery / --delivery-delays); off by default, so every outbound message stays `sent` as before. When on, every
 *   outbound message stored (any channel, ww included) gets its fate when sent, from the seed and its id with the
 *   settings then in force (`planDelivery` in delivery.ts): delivered (then read, or not), failed with a provider
 *   code, or stays `sent`. Changing or turning off the settings affects later messages only. Statuses only move
 *   forward (sent → delivered → read, sent → failed): the platform's record never goes back, a read message never fails.
 * - S52 the defaults (DEFAULT_DELIVERY above); delays are uniform in their [min, max]; read counts from delivered.
 * - S53 no timers: the changes due by the simulated clock are applied in time order before every API request and
 *   control, on advanceClock, messagesOf, messageCount and settle (delivery-timeline.ts). A change sets the message's
 *   `updatedAt` to its time (`read_at` too for read; `failureReason` `(#code) Title.` for failed) and moves the
 *   conversation's `updated_at` to it when later, so the `updated_at` listing shows it; `last_message_id` stays; no
 *   webhook is sent for a status change (chat.message is for new messages only).
 * - S55 a template may have its own delivered and read shares (`delivery.templates`, by template name), over the
 *   shares above for its messages alone: an A/B test of two templates then has a true winner.
 * - S60 several numbers of the company: SimOptions.channels adds numbers beside the seed's (a pool's); the 24-hour
 *   window is per number (the provider's customer-service window is between the person and the number they wrote
 *   to): free text on wba/whatsapp goes only from a number the client wrote to in the last 24 hours; a spam limit can
 *   be set per number (setSpamLimit(afterSends, channelId), POST /__sim/provider/spam-limit with channel_id): only
 *   that number's sends count, and only they fail 131048.
 */
