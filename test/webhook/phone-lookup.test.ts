import { describe, expect, it } from 'vitest';
import { NotFoundError, ServerError } from '../../src/api/index.js';
import { comparablePhone, createPhoneLookup } from '../../src/webhook/phone-lookup.js';

const init = { status: 0, platformMessage: '', body: undefined, method: 'GET', path: '/client/1' };

describe('phone look-up', () => {
  it('asks the platform once per client id, even when asked concurrently', async () => {
    const asked: string[] = [];
    const lookup = createPhoneLookup({
      api: { getClient: async (id) => (asked.push(String(id)), { phone: '+55 (11) 98765-0001' }) },
    });
    const phones = await Promise.all([lookup.resolve('1'), lookup.resolve('1'), lookup.resolve('1')]);
    expect(phones).toEqual(['+5511987650001', '+5511987650001', '+5511987650001']);
    expect(await lookup.resolve('1')).toBe('+5511987650001');
    expect(lookup.known('1')).toBe('+5511987650001');
    expect(asked).toEqual(['1']);
  });

  it('prefers stored links and job checkpoints to a request', async () => {
    const asked: string[] = [];
    const lookup = createPhoneLookup({
      api: { getClient: async (id) => (asked.push(String(id)), { phone: '+1' }) },
      stored: (id) => (id === '1' ? '+5511000000001' : undefined),
      knownPhones: (id) => (id === '2' ? '+5511000000002' : undefined),
    });
    expect(await lookup.resolve('1')).toBe('+5511000000001');
    expect(await lookup.resolve('2')).toBe('+5511000000002');
    expect(asked).toEqual([]);
  });

  it('tries again after a failed request, but remembers a client the platform does not know', async () => {
    let calls = 0;
    const lookup = createPhoneLookup({
      api: {
        async getClient(id) {
          calls += 1;
          if (id === 'gone') throw new NotFoundError('not found', { ...init, status: 404 });
          if (calls === 1) throw new ServerError('down', { ...init, status: 500 });
          return { phone: '+5511000000003' };
        },
      },
    });
    expect(await lookup.resolve('3')).toBeUndefined();
    expect(lookup.stats.failures).toBe(1);
    expect(await lookup.resolve('3')).toBe('+5511000000003');
    expect(await lookup.resolve('gone')).toBeUndefined();
    expect(await lookup.resolve('gone')).toBeUndefined();
    expect(calls).toBe(3);
  });

  it('keeps only what identifies the number', () => {
    expect(comparablePhone(' +55 11 98765-0001 ')).toBe('+5511987650001');
    expect(comparablePhone('+1 (415) 555.0100')).toBe('+14155550100');
    expect(comparablePhone('  ')).toBeNull();
  });
});
