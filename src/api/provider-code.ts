/**
 * The WhatsApp provider's error code inside a platform failure's `message`. The platform passes the
 * provider's refusal on as text, so the code is read from it: only codes in KNOWN_PROVIDER_CODES
 * count, so a phone number or an id in the text is never taken for one. What each code means for a
 * run is decided in run/provider-classes.ts.
 */

/** Every provider code the runner acts on (shared/PROVIDER.md). run/provider-classes.ts classes each one. */
export const KNOWN_PROVIDER_CODES = [
  130429, 80007, 131056, 131047, 470, 131026, 131050, 131049, 131008, 131009, 131051, 100, 132000, 132001, 132005,
  132007, 132012, 132015, 132016, 131048, 368, 131031, 131042,
] as const;

export type KnownProviderCode = (typeof KNOWN_PROVIDER_CODES)[number];

const KNOWN: ReadonlySet<number> = new Set(KNOWN_PROVIDER_CODES);

export function isKnownProviderCode(code: number): code is KnownProviderCode {
  return KNOWN.has(code);
}

/**
 * The forms a code appears in, each capturing the whole digit run (never part of a longer number):
 * - `(#131026) Message undeliverable` — the provider's own;
 * - `code 131026`, `Code #131026`, `error code: 131026` — not `zipcode 131026` nor `code 100.5`;
 * - `"code":131026`, `"code": "131026"` — a JSON fragment; not `"error_code"` or `"subcode"`;
 * - `131026: …` or `131026 - …` at the start — not `100-200 …` nor `10:30`.
 */
const FORMS: readonly RegExp[] = [
  /\(#(\d+)\)/g,
  /\bcode(?:\s*[:=]\s*|\s+)#?(\d+)(?!\d|[.,]\d)/gi,
  /"code"\s*:\s*(?:(\d+)(?![\d.eE])|"(\d+)")/gi,
  /^\s*(\d+)(?::(?!\d)|\s+[-–]\s)/g,
];

/** The first known provider code in the text (by position), or undefined when there is none. */
export function readProviderCode(message: string): number | undefined {
  let best: { at: number; code: number } | undefined;
  for (const form of FORMS) {
    for (const match of message.matchAll(form)) {
      const digits = match[1] ?? match[2];
      if (digits === undefined) continue;
      const code = Number(digits);
      if (String(code) !== digits || !isKnownProviderCode(code)) continue; // `0100` is not 100
      if (best === undefined || match.index < best.at) best = { at: match.index, code };
      break;
    }
  }
  return best?.code;
}
