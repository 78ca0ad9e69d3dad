import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

const PHONE = '+5511999990001';
const MORE = { channels: [{ id: 14, name: 'Sales 2', type: 'wba' as const, status: 1 }] };

describe('several numbers of the company (S60)', () => {
  it('lists the numbers given beside the seed channels', async () => {
    const h = await harness(MORE);
    expect(h.state.channels.map((c) => c.id)).toEqual([10, 11, 12, 13, 14]);
  });

  it('opens the 24-hour window only with the number the person wrote to: text from another number is refused 131047', async () => {
    const h = await harness(MORE);
    h.state.inbound(PHONE, 'oi', 10);
    const other = await h.start({ phone: PHONE, channel_id: 14, send_type: 'text', text: 'Oi!' });
    expect(other.status).toBe(502);
    expect(other.body.message).toMatch(/^\(#131047\) /);
    const own = await h.start({ phone: PHONE, channel_id: 10, send_type: 'text', text: 'Oi!' });
    expect(own.status).toBe(200);
  });

  it('limits one number for spam (131048) while the others go on', async () => {
    const h = await harness(MORE);
    h.state.setSpamLimit(1, 14);
    expect((await h.start({ phone: '+5511999990002', channel_id: 14 })).status).toBe(200);
    const blocked = await h.start({ phone: '+5511999990003', channel_id: 14 });
    expect(blocked.status).toBe(502);
    expect(blocked.body.message).toMatch(/^\(#131048\) /);
    expect((await h.start({ phone: '+5511999990004', channel_id: 10 })).status).toBe(200);
  });
});
