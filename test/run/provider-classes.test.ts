import { describe, expect, it } from 'vitest';
import { KNOWN_PROVIDER_CODES } from '../../src/api/index.js';
import {
  MARKETING_LIMIT_MAX_MS,
  PAIR_RATE_MIN_WAIT_MS,
  PROVIDER_CLASSES,
  accountStopMessage,
  marketingLimitNotBefore,
  pairRateWaitMs,
  providerClass,
  providerClassInfo,
  templateStopMessage,
  type ProviderClass,
} from '../../src/run/index.js';

const EXPECTED: Record<number, ProviderClass> = {
  130429: 'throughput',
  80007: 'throughput',
  131056: 'pair_rate',
  131047: 'window_closed',
  470: 'window_closed',
  131026: 'undeliverable',
  131050: 'opted_out',
  131049: 'marketing_limit',
  131008: 'bad_request',
  131009: 'bad_request',
  131051: 'bad_request',
  100: 'bad_request',
  132000: 'template',
  132001: 'template',
  132005: 'template',
  132007: 'template',
  132012: 'template',
  132015: 'template',
  132016: 'template',
  131048: 'account',
  368: 'account',
  131031: 'account',
  131042: 'account',
};

const CLASSES = Object.keys(PROVIDER_CLASSES) as ProviderClass[];
const HOUR = 3_600_000;

describe('providerClass', () => {
  for (const [code, expected] of Object.entries(EXPECTED)) {
    it(`puts ${code} in ${expected}`, () => expect(providerClass(Number(code))).toBe(expected));
  }

  it('puts an unknown code, or no code, in other', () => {
    expect(providerClass(undefined)).toBe('other');
    expect(providerClass(131000)).toBe('other');
    expect(providerClass(429)).toBe('other');
    expect(providerClass(0)).toBe('other');
  });

  it('classes every code the API client reads, each exactly once, and no other', () => {
    const tabled = CLASSES.flatMap((c) => [...PROVIDER_CLASSES[c].codes]);
    expect(new Set(tabled).size).toBe(tabled.length);
    expect([...tabled].sort((a, b) => a - b)).toEqual([...KNOWN_PROVIDER_CODES].sort((a, b) => a - b));
  });
});

describe('the class descriptions', () => {
  it('does not count undeliverable or opted-out contacts toward the failure-ratio guard, and counts every other class', () => {
    for (const c of CLASSES) {
      expect(providerClassInfo(c).countsTowardFailureRatio, c).toBe(c !== 'undeliverable' && c !== 'opted_out');
    }
  });

  it('lets resume retry throughput, pair rate, marketing limit, template and account refusals, not the others', () => {
    const retryable = CLASSES.filter((c) => providerClassInfo(c).retryableByResume === true);
    expect(retryable.sort()).toEqual(['account', 'marketing_limit', 'pair_rate', 'template', 'throughput']);
    expect(providerClassInfo('other').retryableByResume).toBe('by_outcome');
  });

  it('says what happened to an undeliverable number in words', () => {
    expect(providerClassInfo('undeliverable').label).toBe('the number cannot receive WhatsApp messages');
  });

  it('gives every class a label of its own', () => {
    const labels = CLASSES.map((c) => providerClassInfo(c).label);
    expect(new Set(labels).size).toBe(CLASSES.length);
    for (const label of labels) expect(label).toMatch(/^[a-z].*[^.]$/);
  });

  it('gives each class the action of the table', () => {
    const actions = Object.fromEntries(CLASSES.map((c) => [c, providerClassInfo(c).action]));
    expect(actions).toEqual({
      throughput: 'pause_all_and_retry',
      pair_rate: 'wait_and_retry_contact',
      window_closed: 'send_template',
      undeliverable: 'fail',
      opted_out: 'fail_and_suppress',
      marketing_limit: 'defer',
      bad_request: 'fail',
      template: 'stop_after_in_flight',
      account: 'stop_run',
      other: 'as_outcome',
    });
  });
});

describe('pairRateWaitMs', () => {
  it('waits at least 6 s, whatever the draw', () => {
    for (const random of [0, 0.3, 0.999]) expect(pairRateWaitMs(1, random)).toBeGreaterThanOrEqual(PAIR_RATE_MIN_WAIT_MS);
    expect(pairRateWaitMs(1, 0)).toBe(6_000);
    expect(pairRateWaitMs(0, 0)).toBe(6_000);
  });

  it('doubles with each attempt, with up to a quarter more of jitter', () => {
    expect(pairRateWaitMs(2, 0)).toBe(12_000);
    expect(pairRateWaitMs(3, 0)).toBe(24_000);
    expect(pairRateWaitMs(2, 1)).toBe(15_000);
  });

  it('never waits less on a later attempt, even with the highest draw before and the lowest after', () => {
    for (let attempt = 1; attempt < 10; attempt++) {
      expect(pairRateWaitMs(attempt + 1, 0)).toBeGreaterThanOrEqual(pairRateWaitMs(attempt, 1));
    }
  });

  it('is capped at one minute', () => {
    expect(pairRateWaitMs(20, 1)).toBe(60_000);
  });
});

describe('marketingLimitNotBefore', () => {
  const now = Date.parse('2025-11-28T12:00:00Z');

  it('defers the first refusal by the configured hours', () => {
    expect(marketingLimitNotBefore(now, 24, 0)).toBe(now + 24 * HOUR);
    expect(marketingLimitNotBefore(now, 6, 0)).toBe(now + 6 * HOUR);
  });

  it('doubles the deferral on each repeat', () => {
    expect(marketingLimitNotBefore(now, 24, 1)).toBe(now + 48 * HOUR);
    expect(marketingLimitNotBefore(now, 24, 2)).toBe(now + 96 * HOUR);
  });

  it('never defers more than 30 days', () => {
    expect(marketingLimitNotBefore(now, 24, 10)).toBe(now + MARKETING_LIMIT_MAX_MS);
  });
});

describe('templateStopMessage', () => {
  const promo = { name: 'promo_bf', language: 'pt_BR' };

  it('names the template, its language, the reason and the code, and says nothing more was sent', () => {
    expect(templateStopMessage(132015, promo, '(#132015) Template is paused')).toMatch(
      /^the provider refuses template promo_bf \(pt_BR\): paused for low quality \(132015\); nothing more was sent; /,
    );
  });

  it('has its own sentence, with a fix, for every template code', () => {
    const sentences = PROVIDER_CLASSES.template.codes.map((code) => templateStopMessage(code, promo, 'provider text'));
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const [i, sentence] of sentences.entries()) {
      expect(sentence).toContain(`(${PROVIDER_CLASSES.template.codes[i]})`);
      expect(sentence).not.toContain('provider text');
      expect(sentence).toMatch(/; nothing more was sent; \w.+[^.]$/);
    }
  });

  it("says the provider's own text for a code outside the table", () => {
    expect(templateStopMessage(132999, promo, ' Template is weird ')).toBe(
      'the provider refuses template promo_bf (pt_BR): Template is weird (132999); nothing more was sent; check the template in WhatsApp Manager',
    );
  });
});

describe('accountStopMessage', () => {
  it('says the spam limit and its fix', () => {
    expect(accountStopMessage(131048, '(#131048) Spam rate limit hit')).toBe(
      'the provider limits this number for spam reports (131048): check its quality rating in WhatsApp Manager before sending more',
    );
  });

  it('has its own sentence, with a fix, for every account code', () => {
    const sentences = PROVIDER_CLASSES.account.codes.map((code) => accountStopMessage(code, 'provider text'));
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const [i, sentence] of sentences.entries()) {
      expect(sentence).toMatch(new RegExp(`^the provider .+ \\(${PROVIDER_CLASSES.account.codes[i]}\\): .+ before sending more$`));
      expect(sentence).not.toContain('provider text');
    }
  });

  it("says the provider's own text for a code outside the table", () => {
    expect(accountStopMessage(131999, 'Account restricted')).toBe(
      'the provider stops this account (131999): Account restricted; check WhatsApp Manager before sending more',
    );
  });
});
