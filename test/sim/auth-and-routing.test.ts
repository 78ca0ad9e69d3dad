import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

describe('authentication and routing', () => {
  it('answers 401 with the failure envelope when the bearer token is missing', async () => {
    const h = await harness();
    const res = await h.call('GET', '/wba/templates', undefined, { token: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });

  it('answers 401 to a wrong token and does nothing', async () => {
    const h = await harness();
    const res = await h.call(
      'POST',
      '/chat/conversations/start-whatsapp',
      { channel_id: 10, phone: '+5511999990002', send_type: 'text', text: 'hi' },
      { token: 'wrong' },
    );
    expect(res.status).toBe(401);
    expect(h.state.clientByPhone('+5511999990002')).toBeUndefined();
  });

  it('accepts the bearer scheme in any case', async () => {
    const h = await harness();
    const res = await fetch(`${h.sim.url}/wba/templates`, { headers: { authorization: `bearer ${h.sim.token}` } });
    expect(res.status).toBe(200);
  });

  it('uses the token given in the options', async () => {
    const h = await harness({ token: 'other-token' });
    expect(h.sim.token).toBe('other-token');
    expect((await h.call('GET', '/wba/templates')).status).toBe(200);
    expect((await h.call('GET', '/wba/templates', undefined, { token: 'sim-token' })).status).toBe(401);
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const h = await harness();
    const res = await h.call('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(typeof res.body.message).toBe('string');
  });

  it('treats a non-integer conversation id as an unknown route', async () => {
    const h = await harness();
    expect((await h.call('GET', '/chat/conversations/abc/messages')).status).toBe(404);
  });

  it('answers a known path with another method with 405', async () => {
    const h = await harness();
    const res = await h.call('DELETE', '/clients');
    expect(res.status).toBe(405);
    expect(res.body.success).toBe(false);
  });

  it('answers a malformed JSON body with 422 and creates nothing', async () => {
    const h = await harness();
    const res = await h.call('POST', '/chat/conversations/start-whatsapp', undefined, { raw: '{"channel_id": 10,' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false });
    expect(h.state.clients.size).toBe(0);
  });

  it('answers a JSON body that is not an object with 422', async () => {
    const h = await harness();
    expect((await h.call('POST', '/clients', [1, 2])).status).toBe(422);
  });

  it('serves the seeded channels of company 1 and 404s another company', async () => {
    const h = await harness();
    const res = await h.call('GET', '/company/1/channels');
    expect(res.body.data).toEqual([
      { id: 10, name: 'Sales (WhatsApp Cloud)', type: 'wba', status: 1 },
      { id: 11, name: 'Support (WhatsApp)', type: 'whatsapp', status: 1 },
      { id: 12, name: 'Web session', type: 'ww', status: 1 },
      { id: 13, name: 'Old number', type: 'wba', status: 0 },
    ]);
    expect((await h.call('GET', '/company/2/channels')).status).toBe(404);
  });

  it('lists only approved templates when asked for status APPROVED', async () => {
    const h = await harness();
    const all = await h.call('GET', '/wba/templates');
    const approved = await h.call('GET', '/wba/templates?status=APPROVED');
    expect(all.body.data).toHaveLength(8);
    expect(approved.body.data.map((t: { name: string; language: string }) => `${t.name}/${t.language}`)).toEqual([
      'promo_bf/pt_BR',
      'welcome/en_US',
      'welcome/pt_BR',
      'order_update/es_ES',
      'appointment_reminder/en_US',
      'promo_bf/es_MX',
    ]);
    expect(approved.body.data[0]).toMatchObject({ id: 100, category: expect.any(String), components: [{ type: 'BODY' }, { type: 'FOOTER' }, { type: 'BUTTONS' }] });
    const pending = await h.call('GET', '/wba/templates?status=PENDING');
    expect(pending.body.data.map((t: { name: string }) => t.name)).toEqual(['draft_offer']);
  });
});
