/** Generated journals for the tests of the whole fold (file and database backends). */
import type { HeaderEvent } from '../../src/checkpoint/types.js';
import { seededRandom } from '../../src/sim/random.js';

/** A number written as it stands in the line (JSON.stringify would write 1e3 as 1000): replaced after stringifying. */
const raw = (text: string) => `@@${text}@@`;
const unraw = (line: string) => line.replace(/"@@([^@]*)@@"/g, '$1');

/**
 * Journal lines as the writer writes them (its keys in its order), with every optional field there or
 * not, values in and out of what the fold's fast paths take (phones and ids that are not plain
 * numbers, times that are not canonical or not real, numbers out of range or not written plainly,
 * texts with unicode, quotes, backslashes and control characters), then some lines changed the ways
 * a file may hold them: spaces, an unknown key, an escape where none is needed, keys in another order,
 * a key twice, a CR, a torn write, garbage, blank lines, a header in the middle.
 */
export function journalText(seed: number, phones: number): string {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T extends object>(p: number, x: T): T | object => (r() < p ? x : {});
  let clock = Date.parse('2026-11-21T10:00:00.000Z');
  const odd = (p: number) => r() < p;
  const at = () =>
    odd(0.03)
      ? pick(['2026-11-21T10:00:00Z', '2026-02-30T10:00:00.000Z', '1969-12-31T23:59:59.999Z', '2026-11-21T24:00:00.000Z', '2024-02-29T12:00:00.000Z', '9999-12-31T23:59:59.999Z', '2026-11-21T10:00:00.000+00:00', '2026-11-21t10:00:00.000Z', '２026-11-21T10:00:00.000Z'])
      : new Date((clock += Math.floor(r() * 3000))).toISOString();
  const id = () => (odd(0.1) ? pick(['0', '007', '-1', '12345678901234567', '1234567890123456', '999999999999999', 'conv-7', '１２', '']) : String(Math.floor(r() * 1e9)));
  const via = () => (odd(0.05) ? pick(['Start', 'starts', '']) : pick(['start', 'template', 'message', 'start']));
  const action = () => (odd(0.05) ? pick(['tex', 'templates']) : pick(['template', 'text', 'template']));
  const line = () => (odd(0.1) ? pick([0, 2_147_483_647, 2_147_483_648, -1, 2.5, raw('1e3'), raw('3.0'), raw('-0'), 12_345_678_901]) : Math.floor(r() * 1e6));
  const status = () => (odd(0.1) ? pick([0, 65_535, 65_536, -1, 4.5, raw('502.0'), raw('5e2')]) : pick([502, 400, 0]));
  const text = () =>
    odd(0.3) ? pick(['ação recusada', 'say "no"', 'back\\slash', 'two\nlines', 'tab\there', '\u0001', 'del\u007f', '', '🚀 sent', 'a/b', '\ud800']) : pick(['502: (#131026) Message undeliverable', 'opted_out', 'duplicate', '400: nope']);
  const content = () =>
    pick([
      { text: 'hi' },
      { text: 'olá, "amigo" \\ 🚀\n' },
      { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF-2026' } } },
      { template: { name: 'x', language: 'en', variables: {} } },
      { list: [1, -2.5e3, 0.001, true, false, null, [], {}, [[[]]]] },
      { deep: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) as unknown },
    ]);
  const header = (): HeaderEvent => ({ t: 'header', v: 1, job: 'promo', fingerprint: `f${Math.floor(r() * 10)}`, content: { message: 'hi' }, ...maybe(0.5, { job_file: '/jobs/promo.json' }), at: at() }) as HeaderEvent;

  const attempt = (phone: string) => ({ t: 'attempt', phone, via: via(), action: action(), ...maybe(0.8, { line: line() }), ...maybe(0.1, { conversation_id: id() }), ...maybe(0.1, { variant: pick(['a', 'default']) }), ...maybe(0.1, { channel_id: 5 }), ...maybe(0.4, { content: content() }), at: at() });
  const sent = (phone: string) => ({ t: 'sent', phone, via: via(), action: action(), conversation_id: id(), ...maybe(0.85, { client_id: id() }), message_id: id(), ...maybe(0.05, { media_left_out: true }), ...maybe(0.05, { media_owed: true }), ...maybe(0.05, { variant: 'b' }), ...maybe(0.05, { channel_id: 6 }), at: at() });
  const failed = (phone: string) => ({ t: 'failed', phone, via: via(), action: action(), status: status(), retryable: odd(0.05) ? pick([1, 'true', null]) : r() < 0.5, ...maybe(0.6, { conversation_id: id() }), ...maybe(0.6, { client_id: id() }), error: text(), ...maybe(0.2, { code: 131026, error_class: 'undeliverable' }), at: at() });
  const delivery = (phone: string) => ({
    t: 'delivery',
    phone,
    status: odd(0.05) ? pick(['seen', 'READ']) : pick(['sent', 'delivered', 'read', 'failed', 'read']),
    ...maybe(0.6, { delivered_at: at() }),
    ...maybe(0.4, { read_at: at() }),
    ...maybe(0.05, { failed_at: at() }),
    ...maybe(0.05, { failure_code: 131047, failure_reason: text() }),
    at: at(),
  });
  const skipped = (phone: string) => ({ t: 'skipped', phone, reason: text(), ...maybe(0.05, { detail: 'sent by promo-1 on 2026-11-20' }), ...maybe(0.7, { line: line() }), at: at() });
  const other = (phone: string): object =>
    pick([
      () => attempt(phone),
      () => sent(phone),
      () => failed(phone),
      () => delivery(phone),
      () => skipped(phone),
      () => ({ t: 'in_doubt', phone, via: via(), action: action(), ...maybe(0.5, { conversation_id: id() }), error: 'timeout', at: at() }),
      () => ({ t: 'deferred', phone, reason: 'quiet_hours', not_before: at(), ...maybe(0.5, { line: line() }), ...maybe(0.3, { zone: 'America/Sao_Paulo' }), at: at() }),
      () => ({ t: 'followup', phone, step: pick(['tag:a', 'media', 'custom_fields']), ok: r() < 0.5, ...maybe(0.3, { error: '404: tag not found' }), at: at() }),
      () => ({ t: 'reconciled', phone, result: 'sent', via: via(), action: action(), conversation_id: id(), message_id: id(), sent_at: at(), at: at() }),
      () => ({ t: 'reconciled', phone, result: 'not_sent', at: at() }),
      () => ({ t: 'reconciled', phone, result: 'in_doubt', reason: 'no answer', at: at() }),
      () => ({ t: 'unknown_kind', phone, at: at() }),
    ])();

  const streams: object[][] = [];
  for (let i = 0; i < phones; i++) {
    const phone = odd(0.04) ? pick(['not-a-phone', '+0551190000', '+1234567890123456', '+55 11 9000', '+٥٥١١', '5511900000001', '', `+5511${900_000_000 + i}x`]) : `+5511${900_000_000 + i}`;
    const events: object[] = [];
    const script = r();
    if (script < 0.75) {
      events.push(attempt(phone));
      if (r() < 0.75) events.push(sent(phone));
      else if (r() < 0.8) events.push(failed(phone));
      for (let k = Math.floor(r() * 4); k > 0; k--) events.push(delivery(phone));
    } else if (script < 0.85) {
      events.push(skipped(phone));
    }
    for (let k = r() < 0.7 ? 0 : Math.floor(r() * 4); k > 0; k--) events.push(other(phone));
    streams.push(events);
  }
  const events: object[] = [header()];
  const live = streams.filter((s) => s.length > 0).map((s) => ({ s, i: 0 }));
  while (live.length > 0) {
    const k = Math.floor(r() * Math.min(live.length, 6));
    const cur = live[k];
    if (!cur) break;
    events.push(cur.s[cur.i++] as object);
    if (cur.i === cur.s.length) live.splice(k, 1);
    if (odd(0.002)) events.push(header());
  }

  const lines = events.map((e) => {
    const text = unraw(JSON.stringify(e));
    if (!odd(0.12)) return text;
    return pick([
      () => text.replace('":"', '": "'),
      () => text.replace(',"at"', ', "at"'),
      () => `${text}  `,
      () => `${text}\r`,
      () => ` ${text}`,
      () => text.replace('{', '{"x":1,'),
      () => text.replace(',"at"', ',"x":{"y":[1]},"at"'),
      () => text.replace('"phone":"+', '"phone":"\\u002b'),
      () => text.replace('"t":"', '"t":"\\u0061').replace('"t":"\\u0061a', '"t":"\\u0061'),
      () => text.replace(/,"at":("[^"]*")/, '').replace('{', `{"at":${/"at":("[^"]*")/.exec(text)?.[1] ?? '""'},`),
      () => text.replace(',"at"', ',"line":7,"at"'),
      () => text.replace(',"at"', ',"phone":"+5511900000000","at"'),
      () => text.slice(0, Math.floor(r() * text.length)),
      () => text.slice(0, -1),
      () => `${text}}`,
      () => `${text},`,
      () => pick(['', '   ', '\t', 'garbage', '[]', '"text"', '{}', 'null', '\r']),
      () => text.replace(/"(content|error|reason)":/, '"$1":  '),
      () => text.replace('"content":{', '"content":{ '),
      () => text.replace('"content":{', '"content":{"a":01,'),
      () => text.replace('"content":{', '"content":{"a":"\\x",'),
      () => text.replace('"content":{', '"content":{"a":"\\u12G4",'),
      () => text.replace('"content":{', '"content":{"a":[1,],'),
    ])();
  });
  // The last line: whole without its newline, or a torn fragment, or ended.
  const last = pick(['\n', '', 'torn']);
  return `${lines.join('\n')}${last === 'torn' ? `\n{"t":"sent","phone":"+5511` : last}`;
}

/** A state with a line of -0 (never written) as 0: the columns keep it so, whichever way it is folded; the one reducer's table keeps it as read. */
export function minusZeroAsZero<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v))) as T;
}

