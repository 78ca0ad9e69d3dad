import { describe, expect, it } from 'vitest';
import { defaultDelivery, foldDelivery, planDelivery, sharesFor } from '../../src/sim/delivery.js';

describe('the simulator\'s delivery shares per template', () => {
  it('gives a template its own read share, so two templates read 80 % and 20 % over many messages', () => {
    const settings = foldDelivery(defaultDelivery(), { delivered: 1, failed: 0, templates: { promo_a: { read: 0.8 }, promo_b: { read: 0.2 } } });
    const readShare = (template: string) => {
      let read = 0;
      for (let id = 1; id <= 2000; id++) {
        const plan = planDelivery(sharesFor(settings, template), 7, id, 0);
        if (plan.fate === 'delivered' && plan.readAt !== null) read += 1;
      }
      return read / 2000;
    };
    expect(readShare('promo_a')).toBeGreaterThan(0.75);
    expect(readShare('promo_a')).toBeLessThan(0.85);
    expect(readShare('promo_b')).toBeGreaterThan(0.15);
    expect(readShare('promo_b')).toBeLessThan(0.25);
    // A template without shares of its own keeps the job-wide ones.
    expect(sharesFor(settings, 'welcome').read).toBe(settings.read);
  });

  it('refuses a share outside 0..1, naming the template', () => {
    expect(() => foldDelivery(defaultDelivery(), { templates: { promo_a: { read: 2 } } })).toThrow(/delivery\.templates\.promo_a\.read must be a number from 0 to 1/);
  });
});
