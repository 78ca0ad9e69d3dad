import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

describe('CRM custom fields', () => {
  it('lists the seeded fields campaign and source', async () => {
    const h = await harness();
    const res = await h.call('GET', '/company/1/crm-custom-fields');
    expect(res.body.data.map((f: { key: string }) => f.key)).toEqual(['campaign', 'source']);
    expect(res.body.data[0]).toEqual({
      id: 1, company_id: 1, name: 'Campaign', key: 'campaign', type: 'text', required: false, options: [], active: true,
    });
  });

  it('creates a field with 201', async () => {
    const h = await harness();
    const res = await h.call('POST', '/company/1/crm-custom-fields', {
      name: 'Coupon', key: 'coupon', required: false, options: [], active: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, data: { id: 3, key: 'coupon', type: 'text', company_id: 1 } });
    expect((await h.call('POST', '/company/1/crm-custom-fields', { name: 'Again', key: 'coupon' })).status).toBe(422);
    expect((await h.call('POST', '/company/1/crm-custom-fields', { name: 'No key' })).status).toBe(422);
  });

  it('updates a field through POST with 200 and a body without key', async () => {
    const h = await harness();
    const res = await h.call('POST', '/company/1/crm-custom-fields/2', { name: 'Lead source', required: true, options: ['ads', 'form'], active: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 2, name: 'Lead source', key: 'source', required: true, options: ['ads', 'form'] });
  });

  it('takes key: null in the update body as absent (S30)', async () => {
    const h = await harness();
    const res = await h.call('POST', '/company/1/crm-custom-fields/2', { name: 'Lead source', key: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 2, name: 'Lead source', key: 'source' });
  });

  it('refuses key in the update body with 422', async () => {
    const h = await harness();
    const res = await h.call('POST', '/company/1/crm-custom-fields/2', { name: 'x', key: 'renamed' });
    expect(res.status).toBe(422);
    expect(h.state.customFields.get(2)!.key).toBe('source');
  });

  it('stores values by key and serves them back through GET /client/{id}', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    const res = await h.call('POST', '/company/1/crm-custom-field-values/client/1', { campaign: 'bf-2025', source: 'csv' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { campaign: 'bf-2025', source: 'csv' } });
    await h.call('POST', '/company/1/crm-custom-field-values/client/1', { source: 'import' });
    const client = await h.call('GET', '/client/1');
    expect(client.body.data.custom_fields).toEqual({ campaign: 'bf-2025', source: 'import' });
    expect(h.state.clients.get(1)!.customFields.get('source')).toBe('import');
  });

  it('refuses an unknown key with 422, an unknown client with 404 and another entity type with 422', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    expect((await h.call('POST', '/company/1/crm-custom-field-values/client/1', { nope: 'x' })).status).toBe(422);
    expect((await h.call('POST', '/company/1/crm-custom-field-values/client/9', { campaign: 'x' })).status).toBe(404);
    expect((await h.call('POST', '/company/1/crm-custom-field-values/deal/1', { campaign: 'x' })).status).toBe(422);
    expect(h.state.clients.get(1)!.customFields.size).toBe(0);
  });

  it('deletes a field with 200, its values go with it, and a second delete is 404', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    await h.call('POST', '/company/1/crm-custom-field-values/client/1', { campaign: 'bf' });
    const res = await h.call('DELETE', '/company/1/crm-custom-fields/1');
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(h.state.clients.get(1)!.customFields.has('campaign')).toBe(false);
    expect((await h.call('DELETE', '/company/1/crm-custom-fields/1')).status).toBe(404);
  });
});

describe('CRM tags', () => {
  it('creates a tag with 201 and deletes it with 200, then 404', async () => {
    const h = await harness();
    const created = await h.call('POST', '/company/1/crm-tags', { name: 'bf-2025', color: '#000', description: 'Black Friday' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ id: 3, name: 'bf-2025', color: '#000', description: 'Black Friday' });
    expect((await h.call('POST', '/company/1/crm-tags', { name: 'bf-2025' })).status).toBe(422);
    expect((await h.call('DELETE', '/company/1/crm-tags/3')).body).toEqual({ success: true });
    expect((await h.call('DELETE', '/company/1/crm-tags/3')).status).toBe(404);
  });

  it('removes a deleted tag from its clients', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    await h.call('POST', '/client/1/tags', { name: 'vip' });
    await h.call('DELETE', '/company/1/crm-tags/1');
    expect((await h.call('GET', '/client/1')).body.data.tags).toEqual([]);
  });
});
