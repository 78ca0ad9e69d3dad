/**
 * Every client-side choice where the API document says "not shown", in one place.
 * Each constant cites its number in docs/assumptions.md (A1…A35, C1…C8); the simulator decides the
 * same questions independently in src/sim/assumptions.ts. The types of src/api/types.ts that these
 * choices shape are derived from the constants here, and the endpoint code uses the constants.
 * The window (A23) and text-length (A29) rules are the planner's: src/plan/window.ts, src/plan/decide.ts.
 *
 * Choices made by a function rather than a constant (docs/assumptions.md, C1–C7):
 * - C1 a 2xx start-whatsapp answer with a conversation id but no `message_id` is a SendFailedError:
 *   `startResult` in endpoints/conversations.ts.
 * - C2 a 2xx that is not usable is an ApiError with its 2xx status, a 204 counts as `{success: true}`:
 *   `successEnvelope`, `dataObject`, `dataArray`, `page` in envelope.ts.
 * - C3 every 502 is a SendFailedError (ids read by `readSendFailure` when there are any): `errorFromResponse`
 *   in errors.ts, with SEND_FAILED_STATUS below.
 * - C4 "certainly not sent": `NOT_SENT_CODES` and `toConnectionError` in connection-error.ts, with the
 *   `started` flag set when undici hands the request to a socket (`exchange` in exchange.ts, used by client.ts).
 * - C5 the token, raw, JSON-escaped or URL-encoded (`makeRedactor` in redact.ts), is masked in every string
 *   of every response body and in connection-failure messages (`createTransport` in client.ts);
 *   error paths carry no query string (`errorFromResponse` and ConnectionError get the path without it).
 * - C6 the template bodies' `language` (and wba-send-template's `variables`) are required in
 *   types.ts (`StartWhatsappTemplateBody`, `SendTemplateBody`): the runner always has them.
 * - C7 one message is read by id with `after_id = id - 1, limit = 1` (MESSAGE_LOOKUP_LIMIT below):
 *   `findMessage` in endpoints/message-lookup.ts.
 * - C8 HTTP/2 is offered in the TLS handshake when `allowH2` (the job's `rate.http2`, default on); a
 *   connection the platform answers in HTTP/2 carries up to H2_STREAMS requests it may retry (lookups),
 *   never two sends at once (undici does not multiplex a request it may not retry, and would resend the
 *   others of a connection that went away): `createPool` in pool.ts.
 */

/** A1, A2: any 2xx is success; the body's `success: true` is still required. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A19: a refused token. 403 is treated exactly like 401. */
export const AUTH_STATUSES: readonly number[] = [401, 403];

/** A20: rate limited, nothing done; `Retry-After` in seconds or as an HTTP date. */
export const RATE_LIMITED_STATUS = 429;

/**
 * A3, A7, A22: a send the provider refused (or the web-session service down). On start-whatsapp
 * the body carries the ids in `data.conversation_id`/`data.client_id` whatever `success` says,
 * or at the top level.
 */
export const SEND_FAILED_STATUS = 502;

/** A21: unknown conversation, client, field or tag. */
export const NOT_FOUND_STATUS = 404;

/** A21: 422 (a malformed body or missing field), and any other 4xx not listed above (400, 409, …) read the same way. */
export function isValidationStatus(status: number): boolean {
  return status >= 400 && status < 500;
}

/**
 * A4, A18: every id in a path is an integer: conversation and client ids (start-whatsapp returns
 * them as strings of digits, accepted as they are), companyId, fieldId, tagId and entityId.
 */
export const PATH_ID_PATTERN = /^[0-9]+$/;

/**
 * A5: wba-send-template takes start-whatsapp's template fields and answers `{success, data: Message}`.
 * `SendTemplateBody` is these fields of start-whatsapp's template body; `sendTemplate` sends exactly them.
 */
export const WBA_SEND_TEMPLATE_FIELDS = ['template_name', 'language', 'variables'] as const;

/** A9: the conversation statuses `PUT /status` accepts; A11: the keys of the counts (`ConversationStatus`). */
export const CONVERSATION_STATUSES = ['automated', 'open', 'pending', 'closed'] as const;

/** A9: take-over takes no body. */
export const TAKE_OVER_HAS_BODY = false;

/** The document: messages `limit` defaults to 50, maximum 200 (A28: above is capped). */
export const MESSAGES_MAX_LIMIT = 200;

/** C7: reading one message by id asks for a page of one after `id - 1`. */
export const MESSAGE_LOOKUP_LIMIT = 1;

/** A12: the conversations listing pages by `page`/`per_page` (max 200), oldest change first, `updated_at >=`. */
export const CONVERSATIONS_MAX_PER_PAGE = 200;

/**
 * A13: the clients listing takes `page` (from 1), `per_page` (max 200) and `phone` (exact E.164): the keys of
 * `ClientsQuery`, and the only ones `listClients` puts in the query string.
 */
export const CLIENTS_QUERY_KEYS = ['page', 'per_page', 'phone'] as const;

/** A25: message `deliveryStatus` values (`DeliveryStatus`). */
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/** A27: channel `status` 1 is active, 0 inactive. */
export const CHANNEL_ACTIVE_STATUS = 1;
