export { execute, type ExecuteOptions, type ExecuteResult, type StopReason } from './executor.js';
export { createRateLimiter, permitsForTick, unlimitedLimiter, type RateLimiter, type LimiterOptions } from './limiter.js';
export { shouldSend } from './send-contact.js';
export type { ContactResult, RetryMode } from './contact-result.js';
export { classify, providerRefusalOf, type Outcome, type ProviderRefusal } from './outcome.js';
export { backoffMs, rateLimitWaitMs } from './retry-policy.js';
export { attempted, emptyStats, failureRatio, failureRatioExceeded, type RunStats } from './stats.js';
export { followupSteps, followupsDue, owedMedia, stepsOwed } from './followups.js';
export { abortableSleep, type ProviderStopReason } from './context.js';
export {
  PROVIDER_CLASSES,
  PAIR_RATE_MIN_WAIT_MS,
  MARKETING_LIMIT_HOURS,
  MARKETING_LIMIT_MAX_MS,
  accountStopMessage,
  marketingLimitNotBefore,
  pairRateWaitMs,
  providerClass,
  providerClassInfo,
  templateStopMessage,
  type ProviderAction,
  type ProviderClass,
  type ProviderClassInfo,
} from './provider-classes.js';
export {
  ADJUST_EVERY_MS,
  BOUND_SLACK,
  DECREASE,
  HEADROOM,
  HOLD_MS,
  MAX_GROWTH_SPAN_MS,
  concurrencyBound,
  concurrencyBoundMessage,
  createConcurrencyController,
  growthStep,
  nextLimit,
  targetLimit,
  type ConcurrencyBound,
  type ConcurrencyController,
  type ConcurrencyOptions,
  type ConcurrencySample,
  type ConcurrencySettings,
  type ConcurrencyState,
  type Observation,
  type SampleKind,
} from './concurrency.js';
export { createLatencyWindow, percentile, type LatencyWindow } from './latency-window.js';
export { answerKind } from './answer-kind.js';
export { AUTO_INITIAL, boundWatch, concurrencyBoundNow, runConcurrency, type PoolNumbers, type RunConcurrency } from './run-concurrency.js';
export { poolController, type NumberController } from './pool-concurrency.js';
export { contactNumber, createSenderPool, rendezvousNumber, type Drained, type NumberFigures, type SenderNumber, type SenderPool } from './sender-pool.js';
export { nextStep, type Step, type StepPlan, type Tries } from './next-step.js';
export { startBody, type Payload } from './requests.js';
export { planOf } from './send-plan.js';
export { deliver } from './deliver.js';
export type { SendContext } from './context.js';
export { shareGate, type ShareGate } from './share-gate.js';
