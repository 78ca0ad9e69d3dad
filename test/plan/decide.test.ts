import { describe, expect, it } from 'vitest';
import { decide, type Action } from '../../src/plan/index.js';
import { HOUR, MEDIA, NOW, TEMPLATE, TEXT, WBA, WHATSAPP, WW, makeContact, makeJob } from './fixtures.js';

const rendered = { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF10' } };
const text = 'Oi Ana, seu cupom é BF10';
/** The default safety margin is 60 minutes: text goes while the last inbound is younger than 23 hours. */
const EDGE = 23 * HOUR;

describe('decide on wba/whatsapp channels', () => {
  it.each<[string, Record<string, unknown>, number | undefined, Action]>([
    [
      'sends the text with its fallback template when the window is open',
      { template: TEMPLATE, text: TEXT },
      NOW - 2 * HOUR,
      { kind: 'text', text, fallbackTemplate: rendered },
    ],
    [
      'sends the template when the window is closed',
      { template: TEMPLATE, text: TEXT },
      NOW - 30 * HOUR,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
    [
      'treats an unknown window as closed',
      { template: TEMPLATE, text: TEXT },
      undefined,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
    [
      'sends the text one millisecond before the safety margin starts',
      { template: TEMPLATE, text: TEXT },
      NOW - EDGE + 1,
      { kind: 'text', text, fallbackTemplate: rendered },
    ],
    [
      'sends the template exactly at 24 hours minus the safety margin',
      { template: TEMPLATE, text: TEXT },
      NOW - EDGE,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
    [
      'sends the template inside the window when the job prefers it',
      { template: TEMPLATE, text: TEXT, prefer: 'template' },
      NOW - HOUR,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
    [
      'sends the text with no fallback when the job has no template',
      { text: TEXT },
      NOW - HOUR,
      { kind: 'text', text },
    ],
    [
      'skips a contact outside the window when the job has no template',
      { text: TEXT },
      NOW - 30 * HOUR,
      { kind: 'skip', reason: 'outside_24h_window' },
    ],
    [
      'sends a template-only job as the template inside the window too',
      { template: TEMPLATE },
      NOW - HOUR,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
    [
      'plans the media as a follow-up of the text, never inline',
      { template: TEMPLATE, text: TEXT, media: MEDIA },
      NOW - HOUR,
      { kind: 'text', text, media: { media: MEDIA, placement: 'followup' }, fallbackTemplate: rendered },
    ],
    [
      'plans the media as a follow-up of a preferred template while the window is open',
      { template: TEMPLATE, text: TEXT, prefer: 'template', media: MEDIA },
      NOW - HOUR,
      { kind: 'template', template: rendered, media: { media: MEDIA, placement: 'followup' }, mediaLeftOut: false },
    ],
    [
      'leaves the media out of a template outside the window',
      { template: TEMPLATE, text: TEXT, media: MEDIA },
      NOW - 30 * HOUR,
      { kind: 'template', template: rendered, mediaLeftOut: true },
    ],
    [
      'counts a last inbound a little in the future (clock skew) as just now',
      { template: TEMPLATE, text: TEXT },
      NOW + 60_000,
      { kind: 'text', text, fallbackTemplate: rendered },
    ],
    [
      'treats a last inbound far in the future as wrong data, so unknown',
      { template: TEMPLATE, text: TEXT },
      NOW + 48 * HOUR,
      { kind: 'template', template: rendered, mediaLeftOut: false },
    ],
  ])('%s', (_what, message, lastInboundAt, expected) => {
    expect(decide(makeContact(), WBA, makeJob(message), { now: NOW, lastInboundAt })).toEqual(expected);
    expect(decide(makeContact(), WHATSAPP, makeJob(message), { now: NOW, lastInboundAt })).toEqual(expected);
  });

  it('flips text to template for the same contact when the window closes during the run', () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT });
    const window = { lastInboundAt: NOW - 22 * HOUR };
    expect(decide(makeContact(), WBA, job, { now: NOW, ...window }).kind).toBe('text');
    expect(decide(makeContact(), WBA, job, { now: NOW + 2 * HOUR, ...window }).kind).toBe('template');
  });

  it("takes the later of the contact list's last inbound and the window store's", () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT });
    const contact = makeContact(undefined, NOW - 30 * HOUR);
    expect(decide(contact, WBA, job, { now: NOW }).kind).toBe('template');
    expect(decide(contact, WBA, job, { now: NOW, lastInboundAt: NOW - HOUR }).kind).toBe('text');
    expect(decide(makeContact(undefined, NOW - HOUR), WBA, job, { now: NOW, lastInboundAt: NOW - 30 * HOUR }).kind).toBe('text');
  });

  it("in a pool of numbers, reads only the window on the contact's number: the list's last inbound, which names no number, opens none", () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT });
    const listed = makeContact(undefined, NOW - HOUR);
    expect(decide(listed, WBA, job, { now: NOW, windowOfNumber: true }).kind).toBe('template');
    expect(decide(makeContact(), WBA, job, { now: NOW, windowOfNumber: true, lastInboundAt: NOW - HOUR }).kind).toBe('text');
  });

  it('uses the job\'s safety margin', () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT }, { window: { safety_margin_minutes: 0 } });
    expect(decide(makeContact(), WBA, job, { now: NOW, lastInboundAt: NOW - 23.5 * HOUR }).kind).toBe('text');
    expect(decide(makeContact(), WBA, job, { now: NOW, lastInboundAt: NOW - 24 * HOUR }).kind).toBe('template');
  });
});

describe('decide on ww channels', () => {
  it('sends the text with the media inline in start-whatsapp, whatever the window', () => {
    const job = makeJob({ text: TEXT, media: MEDIA });
    for (const lastInboundAt of [undefined, NOW - 100 * HOUR, NOW - HOUR]) {
      expect(decide(makeContact(), WW, job, { now: NOW, lastInboundAt })).toEqual({
        kind: 'text',
        text,
        media: { media: MEDIA, placement: 'inline' },
      });
    }
  });

  it('never sends a template on ww, even when the job prefers it', () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT, prefer: 'template' });
    expect(decide(makeContact(), WW, job, { now: NOW })).toEqual({ kind: 'text', text });
  });

  it('skips when a ww job has no text (preflight refuses such a job first)', () => {
    expect(decide(makeContact(), WW, makeJob({ template: TEMPLATE }), { now: NOW })).toEqual({ kind: 'skip', reason: 'no_text_for_ww' });
  });
});

describe('decide never sends a blank', () => {
  it.each<[string, Record<string, unknown>, Record<string, string>, number | undefined, Record<string, unknown>, Action]>([
    [
      'rejects a contact whose list has no column the text uses',
      { text: TEXT },
      { name: 'Ana' },
      NOW - HOUR,
      {},
      {
        kind: 'reject',
        reason: 'missing_variable:coupon',
        detail: 'message.text uses {{coupon}} but this contact has no "coupon" column',
      },
    ],
    [
      'rejects a contact whose cell is empty or blank',
      { text: TEXT },
      { name: 'Ana', coupon: '  ' },
      NOW - HOUR,
      {},
      { kind: 'reject', reason: 'missing_variable:coupon', detail: 'message.text uses {{coupon}} but this contact\'s "coupon" is empty' },
    ],
    [
      'checks the fallback template of a text, so a closing window cannot lead to a blank',
      { text: 'Oi {{name}}', template: TEMPLATE },
      { name: 'Ana' },
      NOW - HOUR,
      {},
      {
        kind: 'reject',
        reason: 'missing_variable:coupon',
        detail: 'message.template.variables["2"] uses {{coupon}} but this contact has no "coupon" column',
      },
    ],
    [
      'checks the after-send custom fields',
      { template: TEMPLATE },
      { name: 'Ana', coupon: 'BF10' },
      undefined,
      { after_send: { custom_fields: { city: '{{city}}' } } },
      {
        kind: 'reject',
        reason: 'missing_variable:city',
        detail: 'after_send.custom_fields.city uses {{city}} but this contact has no "city" column',
      },
    ],
    [
      'rejects a text longer than 4,096 characters once filled in',
      { text: 'x{{name}}' },
      { name: 'a'.repeat(4096) },
      undefined,
      {},
      { kind: 'reject', reason: 'text_too_long', detail: 'the text is 4097 characters once filled in; the platform takes at most 4,096' },
    ],
  ])('%s', (_what, message, vars, lastInboundAt, extra, expected) => {
    const channel = message.template ? WBA : WW;
    expect(decide(makeContact(vars), channel, makeJob(message, extra), { now: NOW, lastInboundAt })).toEqual(expected);
  });

  it('does not check the text of a contact that gets the template (outside the window)', () => {
    const job = makeJob({ text: 'Oi {{name}} de {{city}}', template: TEMPLATE });
    expect(decide(makeContact(), WBA, job, { now: NOW })).toMatchObject({ kind: 'template' });
  });

  it('does not reject a contact that is skipped anyway', () => {
    const job = makeJob({ text: 'Oi {{city}}' });
    expect(decide(makeContact(), WBA, job, { now: NOW })).toEqual({ kind: 'skip', reason: 'outside_24h_window' });
  });

  it('matches placeholders to columns trimmed and case-insensitively, and trims the values', () => {
    const job = makeJob({ text: 'Oi {{ Name }}!' });
    expect(decide(makeContact({ name: '  Ana ' }), WW, job, { now: NOW })).toEqual({ kind: 'text', text: 'Oi Ana!' });
  });

  it('folds line breaks and runs of spaces in template variables, which the provider refuses', () => {
    const job = makeJob({ template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } });
    expect(decide(makeContact({ name: 'Ana\n  Maria' }), WBA, job, { now: NOW })).toMatchObject({
      template: { variables: { '1': 'Ana Maria' } },
    });
  });

  it('keeps template variables in position order', () => {
    const variables = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(11 - i), `v${11 - i}`]));
    const job = makeJob({ template: { name: 'big', language: 'en_US', variables } });
    const action = decide(makeContact(), WBA, job, { now: NOW });
    expect(action.kind === 'template' && Object.keys(action.template.variables)).toEqual(
      Array.from({ length: 11 }, (_, i) => String(i + 1)),
    );
  });
});
