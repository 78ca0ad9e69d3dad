import { describe, expect, it } from 'vitest';
import { actionLabel, type Action } from '../../src/plan/index.js';
import { MEDIA } from './fixtures.js';

const template = { name: 'promo_bf', language: 'pt_BR', variables: {} };

describe('actionLabel', () => {
  it.each<[Action, string]>([
    [{ kind: 'template', template, mediaLeftOut: false }, 'template'],
    [{ kind: 'template', template, media: { media: MEDIA, placement: 'followup' }, mediaLeftOut: false }, 'template+media'],
    [{ kind: 'template', template, mediaLeftOut: true }, 'template (media left out)'],
    [{ kind: 'text', text: 'hi' }, 'text'],
    [{ kind: 'text', text: 'hi', media: { media: MEDIA, placement: 'inline' } }, 'text+media'],
    [{ kind: 'skip', reason: 'outside_24h_window' }, 'skip:outside_24h_window'],
    [{ kind: 'defer', reason: 'quiet_hours', notBefore: 0 }, 'defer:quiet_hours'],
    [{ kind: 'reject', reason: 'missing_variable:coupon', detail: '' }, 'reject:missing_variable:coupon'],
  ])('labels %j as %s', (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });

});
