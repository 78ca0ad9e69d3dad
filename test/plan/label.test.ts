import { describe, expect, it } from 'vitest';
import { actionLabel, countActions, type Action } from '../../src/plan/index.js';
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
    [{ kind: 'reject', reason: 'missing_variable:coupon', detail: '' }, 'reject:missing_variable:coupon'],
  ])('labels %j as %s', (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });

  it('counts a plan by label', () => {
    const actions: Action[] = [
      { kind: 'text', text: 'a' },
      { kind: 'skip', reason: 'outside_24h_window' },
      { kind: 'text', text: 'b' },
      { kind: 'template', template, mediaLeftOut: true },
    ];
    expect(countActions(actions)).toEqual({ 'skip:outside_24h_window': 1, 'template (media left out)': 1, text: 2 });
  });
});
