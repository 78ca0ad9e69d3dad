import { describe, expect, it } from 'vitest';
import { deliveryEvent, deliveryFacts } from '../../src/checkpoint/delivery-codec.js';
import type { DeliveryFacts } from '../../src/checkpoint/index.js';

describe('the delivery facts and their journal event', () => {
  it('give back the same facts once written as an event and read again, each fact under its journal name', () => {
    const all: DeliveryFacts = { status: 'failed', deliveredAt: '2026-03-01T12:00:01.000Z', failedAt: '2026-03-01T12:00:02.000Z', failureCode: 131050, failureReason: 'stopped marketing' };
    const event = deliveryEvent('+5511987654321', all, '2026-03-01T12:05:00.000Z');
    expect(event).toEqual({
      t: 'delivery',
      phone: '+5511987654321',
      status: 'failed',
      delivered_at: '2026-03-01T12:00:01.000Z',
      failed_at: '2026-03-01T12:00:02.000Z',
      failure_code: 131050,
      failure_reason: 'stopped marketing',
      at: '2026-03-01T12:05:00.000Z',
    });
    expect(deliveryFacts(event)).toEqual(all);
    const read: DeliveryFacts = { status: 'read', readAt: '2026-03-01T12:03:00.000Z' };
    expect(deliveryFacts(deliveryEvent('+5511987654321', read, '2026-03-01T12:05:00.000Z'))).toEqual(read);
  });
});
