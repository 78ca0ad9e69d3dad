import type { PlatformRefusalReason, ProviderRefusalReason } from '../assumptions.js';
import type { ProviderCode } from '../provider-codes.js';

/** A refusal by the provider, passed on with its code (S42). */
export interface ProviderRefusal {
  kind: 'provider';
  reason: ProviderRefusalReason;
  code: ProviderCode;
  detail?: string;
}

export type SendVerdict = { kind: 'send' } | { kind: 'platform'; reason: PlatformRefusalReason } | ProviderRefusal;

/** Everything a send's fate depends on, gathered as values before deciding. */
export interface SendFacts {
  channelActive: boolean;
  /** A `wba`/`whatsapp` channel: the provider's rules and codes apply (S44). */
  official: boolean;
  wwDown: boolean;
  /** A code forced for the recipient's phone by a control. */
  forcedCode: ProviderCode | undefined;
  /** The account's spam limit is reached (131048). */
  spamLimited: boolean;
  /** The message's own refusal: a template rule (A22) or free text outside the window (A23). */
  contentRefusal: ProviderRefusal | undefined;
  /** A template send. */
  template: boolean;
  /** The recipient stopped marketing messages from this business (131050 on template sends, S46). */
  marketingStopped: boolean;
}

/** The random draws, made only when the decision reaches them (so one fault does not shift another's sequence). */
export interface SendDraws {
  /** The code of `providerErrors` this send fails with, if any (S48). */
  providerError(): ProviderCode | undefined;
  /** `failRate`. */
  injectedFailure(): boolean;
}

function provider(code: ProviderCode): ProviderRefusal {
  return { kind: 'provider', reason: 'provider_error', code };
}

/**
 * Whether a send goes out, in the order of S45: inactive channel, web session down, the recipient's forced
 * code, the account's spam limit, the message's own refusal, marketing stopped, `providerErrors`, `failRate`.
 */
export function decideSend(facts: SendFacts, draws: SendDraws): SendVerdict {
  if (!facts.channelActive) return { kind: 'platform', reason: 'channel_inactive' };
  if (!facts.official && facts.wwDown) return { kind: 'platform', reason: 'web_session_down' };
  if (facts.official && facts.forcedCode !== undefined) return provider(facts.forcedCode);
  if (facts.official && facts.spamLimited) return provider(131048);
  if (facts.contentRefusal) return facts.contentRefusal;
  if (facts.official && facts.template && facts.marketingStopped) return provider(131050);
  if (facts.official) {
    const code = draws.providerError();
    if (code !== undefined) return provider(code);
  }
  if (draws.injectedFailure()) return { kind: 'platform', reason: 'injected_failure' };
  return { kind: 'send' };
}
