/** The typed client of the platform's integration API. Imports nothing of the project. */
export { createApiClient, type ApiClient } from './api-client.js';
export type { ApiClientOptions } from './client.js';
export type { ConversationsApi } from './endpoints/conversations.js';
export type { ClientsApi } from './endpoints/clients.js';
export type { CrmApi } from './endpoints/crm.js';
export type { CatalogApi } from './endpoints/catalog.js';
export { pagingApi, type PagingApi, type PagingOptions } from './endpoints/paging.js';
export { findMessage } from './endpoints/message-lookup.js';
export {
  ApiError,
  AuthError,
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  SendFailedError,
  ServerError,
  ValidationError,
  errorFromResponse,
  isApiError,
  type ApiErrorInit,
  type ResponseHeaders,
} from './errors.js';
export { CHANNEL_ACTIVE_STATUS } from './assumptions.js';
export { parseRetryAfter } from './retry-after.js';
export { KNOWN_PROVIDER_CODES, isKnownProviderCode, readProviderCode, type KnownProviderCode } from './provider-code.js';
export { makeRedactor, REDACTED } from './redact.js';
export { templatePlaceholders } from './template-placeholders.js';
export type * from './types.js';
export { onAbort, childSignal } from './abort-listeners.js';
