import { describe, expect, it } from 'vitest';
import { messageKey } from '../../src/job/index.js';
import { decide } from '../../src/plan/index.js';
import { HOUR, NOW, TEMPLATE, TEXT, WBA, makeContact, makeJob } from './fixtures.js';

const template = { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF10' } } };
const text = { text: 'Oi Ana, seu cupom é BF10' };
const earlier = (message: string, job = 'bf', at = NOW - 30 * 24 * HOUR) => ({ job, at, message });

describe('the same message is never sent twice to one person', () => {
  it('skips already_sent a contact another job sent this very template with these values, naming the job and the day, however long ago', () => {
    const action = decide(makeContact(), WBA, makeJob({ template: TEMPLATE }), { now: NOW, sentBefore: [earlier(messageKey(template))] });
    expect(action).toEqual({ kind: 'skip', reason: 'already_sent', detail: 'job bf sent this message on 2026-10-28', earlier: { job: 'bf', at: NOW - 30 * 24 * HOUR } });
  });

  it('counts the text the job would send as the same message as its template to that contact (either form it could take now)', () => {
    const closed = decide(makeContact(), WBA, makeJob({ template: TEMPLATE, text: TEXT }), { now: NOW, sentBefore: [earlier(messageKey(text))] });
    expect(closed).toMatchObject({ kind: 'skip', reason: 'already_sent' });
    const open = decide(makeContact(), WBA, makeJob({ template: TEMPLATE, text: TEXT }), { now: NOW, lastInboundAt: NOW - HOUR, sentBefore: [earlier(messageKey(template))] });
    expect(open).toMatchObject({ kind: 'skip', reason: 'already_sent' });
  });

  it('sends another message (other values) and leaves it to the frequency cap', () => {
    const other = { template: { ...template.template, variables: { '1': 'Ana', '2': 'NATAL' } } };
    const action = decide(makeContact(), WBA, makeJob({ template: TEMPLATE }), { now: NOW, sentBefore: [earlier(messageKey(other))], lastMessagedAt: NOW - HOUR });
    expect(action).toMatchObject({ kind: 'defer', reason: 'recently_messaged' });
    expect(decide(makeContact(), WBA, makeJob({ template: TEMPLATE }), { now: NOW, sentBefore: [earlier(messageKey(other))] })).toMatchObject({ kind: 'template' });
  });

  it('sends it again when the job says limits.repeat_message', () => {
    const job = makeJob({ template: TEMPLATE }, { limits: { repeat_message: true } });
    expect(decide(makeContact(), WBA, job, { now: NOW, sentBefore: [earlier(messageKey(template))] })).toMatchObject({ kind: 'template' });
  });

  it('leaves a suppressed contact suppressed, and a contact it cannot render rejected', () => {
    expect(decide(makeContact(), WBA, makeJob({ template: TEMPLATE }), { now: NOW, suppressed: { reason: 'STOP', source: 'manual' }, sentBefore: [earlier(messageKey(template))] })).toEqual({ kind: 'skip', reason: 'suppressed' });
    expect(decide(makeContact({ name: 'Ana', coupon: '' }), WBA, makeJob({ template: TEMPLATE }), { now: NOW, sentBefore: [earlier(messageKey(template))] })).toMatchObject({ kind: 'reject' });
  });
});

describe('messageKey', () => {
  it('is the same for the same template, language and values whatever the order of the values, and differs for any other', () => {
    const a = messageKey({ template: { name: 'promo_bf', language: 'pt_BR', variables: { '2': 'BF10', '1': 'Ana', '10': 'x' } } });
    expect(messageKey({ template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '10': 'x', '2': 'BF10' } } })).toBe(a);
    expect(messageKey({ template: { name: 'promo_bf', language: 'es_MX', variables: { '1': 'Ana', '10': 'x', '2': 'BF10' } } })).not.toBe(a);
    expect(messageKey({ template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Bia', '10': 'x', '2': 'BF10' } } })).not.toBe(a);
    expect(messageKey({ text: 'Oi' })).not.toBe(messageKey({ text: 'Oi!' }));
    expect(a).toMatch(/^[0-9a-f]{16}$/);
  });
});
