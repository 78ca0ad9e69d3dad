/** The webhook receiver and the polling safety net; they write through checkpoint/. */
export { verifySignature, SIGNATURE_HEADER } from './signature.js';
export { parseChatMessage, type ChatMessageEvent, type ParsedEvent } from './parse-event.js';
export {
  startReceiver,
  MAX_BODY_BYTES,
  type Receiver,
  type ReceiverOptions,
  type ReceiverStats,
  type DeliveryResult,
} from './receiver.js';
export { decideHealth, healthLine, healthStatus, storeHealth, type HealthSource, type ReceiverHealth, type SpoolCheck, type StoreCheck, type StoreHealthOptions } from './health.js';
export { STORE_TIMEOUT_MS, type SpoolHealth } from './intake.js';
export { SpoolInUseError } from './spool-owner.js';
export type { Sleep } from './spool-drain.js';
export { createPhoneLookup, type PhoneLookup, type PhoneLookupOptions } from './phone-lookup.js';
export { sync, FIRST_SYNC_SINCE, SyncSinceError, type SyncOptions, type SyncResult } from './sync.js';
export { knownPhones, type KnownPhones } from './known-phones.js';
export { applyKeywordReply, type KeywordOutcome } from './opt-out.js';
export type { ClientReader, ConversationReader, SyncApi } from './platform.js';
export {
  DEFAULT_KEYWORDS,
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  OPT_IN_ENV,
  OPT_OUT_ENV,
  classifyInbound,
  inboundKeywords,
  keywordsFromEnv,
  normaliseKeyword,
  type InboundIntent,
  type InboundKeywords,
} from './keywords.js';
