import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

describe('clients', () => {
  it('refuses to create a client without email and phone', async () => {
    const h = await harness();
    const res = await h.call('POST', '/clients', { name: 'Ana' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: expect.any(String) });
    expect(h.state.clients.size).toBe(0);
  });

  it('creates a client with only a phone, or only an email', async () => {
    const h = await harness();
    const byPhone = await h.call('POST', '/clients', { name: 'Ana', phone: '+5511999990001' });
    expect(byPhone.status).toBe(201);
    expect(byPhone.body).toMatchObject({ success: true, data: { id: 1, name: 'Ana', phone: '+5511999990001', client_type: 'pf' } });
    const byEmail = await h.call('POST', '/clients', { name: 'Bia', email: 'bia@example.com' });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.data).toMatchObject({ email: 'bia@example.com', phone: '' });
  });

  it('refuses a malformed phone or email and a phone already taken', async () => {
    const h = await harness();
    expect((await h.call('POST', '/clients', { phone: '11999990001' })).status).toBe(422);
    expect((await h.call('POST', '/clients', { email: 'not-an-email' })).status).toBe(422);
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    expect((await h.call('POST', '/clients', { phone: '+5511999990001' })).status).toBe(422);
  });

  it('start-whatsapp finds a client created through /clients by phone', async () => {
    const h = await harness();
    const created = await h.call('POST', '/clients', { name: 'Ana', phone: '+5511999990001' });
    const started = await h.start({ phone: '+5511999990001' });
    expect(started.body.data.client_id).toBe(String(created.body.data.id));
  });

  it('lists clients with page, per_page and an exact phone filter', async () => {
    const h = await harness();
    for (let i = 1; i <= 3; i++) await h.call('POST', '/clients', { phone: `+551199999000${i}` });
    const page = await h.call('GET', '/clients?page=1&per_page=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.pagination).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    const one = await h.call('GET', `/clients?phone=${encodeURIComponent('+5511999990002')}`);
    expect(one.body.data.map((c: { phone: string }) => c.phone)).toEqual(['+5511999990002']);
  });

  it('reads one client with tags, addresses, contact aliases and custom fields', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    await h.call('POST', '/client/1/tags', { name: 'vip' });
    const res = await h.call('GET', '/client/1');
    expect(res.body.data).toMatchObject({
      id: 1,
      tags: [{ id: 1, name: 'vip', color: expect.any(String), description: expect.any(String) }],
      addresses: [],
      contact_aliases: [],
      custom_fields: {},
    });
    expect((await h.call('GET', '/client/99')).status).toBe(404);
  });

  it('adds a tag by name idempotently, creating the company tag when new', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    const first = await h.call('POST', '/client/1/tags', { name: 'bf-2025' });
    const again = await h.call('POST', '/client/1/tags', { name: 'bf-2025' });
    expect(first.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(h.state.clients.get(1)!.tagIds).toEqual([first.body.data.id]);
    expect([...h.state.tags.values()].filter((t) => t.name === 'bf-2025')).toHaveLength(1);
    expect((await h.call('POST', '/client/1/tags', {})).status).toBe(422);
  });

  it('updates given fields and replaces the tag list', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { name: 'Ana', phone: '+5511999990001' });
    await h.call('POST', '/client/1/tags', { name: 'vip' });
    const res = await h.call('PUT', '/client/1', { lastname: 'Souza', phone: '+5511999990009', tags: ['lead', 'new-one'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Ana', lastname: 'Souza', phone: '+5511999990009' });
    expect(res.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['lead', 'new-one']);
    expect(h.state.clientByPhone('+5511999990009')!.id).toBe(1);
    expect(h.state.clientByPhone('+5511999990001')).toBeUndefined();
  });
});
