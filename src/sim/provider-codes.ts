/**
 * The WhatsApp provider's error codes and their titles (S41), as the provider words them where its table is
 * known (../shared/PROVIDER.md), plausible otherwise. The platform passes a refusal on unchanged in the
 * provider's form `(#131026) Message undeliverable.`: branch on the code, never on the title.
 */
export const PROVIDER_ERRORS = {
  100: 'Invalid parameter',
  368: 'Temporarily blocked for policies violations',
  470: 'Re-engagement message',
  80007: 'Rate limit issues',
  130429: 'Rate limit hit',
  131008: 'Required parameter is missing',
  131009: 'Parameter value is not valid',
  131026: 'Message undeliverable',
  131031: 'Account has been locked',
  131042: 'Business eligibility payment issue',
  131047: 'Re-engagement message',
  131048: 'Spam rate limit hit',
  131049: 'This message was not delivered to maintain healthy ecosystem engagement',
  131050: 'User has stopped marketing messages from this business',
  131051: 'Unsupported message type',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template name does not exist in the translation',
  132005: 'Translated text too long',
  132007: 'Template Format Character Policy Violated',
  132012: 'Parameter format does not match format in the created template',
  132015: 'Template is Paused',
  132016: 'Template is Disabled',
} as const;

export type ProviderCode = keyof typeof PROVIDER_ERRORS;

/** Every known code, ascending. */
export const PROVIDER_CODES: readonly ProviderCode[] = Object.keys(PROVIDER_ERRORS)
  .map(Number)
  .filter(isProviderCode)
  .sort((a, b) => a - b);

export function isProviderCode(value: unknown): value is ProviderCode {
  return typeof value === 'number' && Object.hasOwn(PROVIDER_ERRORS, value);
}

/** A code written as text (a JSON key, a flag): its number when it is a known code. */
export function providerCodeOf(text: string): ProviderCode | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const code = Number(text);
  return isProviderCode(code) ? code : undefined;
}

/** `(#131026) Message undeliverable.`, with the detail after it in parentheses when there is one. */
export function providerMessage(code: ProviderCode, detail?: string): string {
  const text = `(#${code}) ${PROVIDER_ERRORS[code]}.`;
  return detail ? `${text} (${detail})` : text;
}
