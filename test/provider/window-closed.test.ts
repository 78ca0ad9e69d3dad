import { describe, expect, it } from 'vitest';
import { provided, type Provided } from './helpers.js';

const TEMPLATE = { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } };

/** The store believes these phones wrote a minute ago; the platform has no message from them. */
async function believeWindowOpen(p: Provided, phones: string[]): Promise<void> {
  const windows = await p.store.openWindowStore();
  phones.forEach((phone, i) => windows.noteInbound({ clientId: `stale-${i}`, phone, at: Date.now() - 60_000 }));
  await windows.flush();
}

describe('window_closed (131047, 470): free text refused, the template goes on the same conversation', () => {
  it('answers a refused text with the job template through wba-send-template, at once and once', async () => {
    const p = await provided({ rows: 3, job: { message: { text: 'Oi {{name}}, seu cupom é {{coupon}}', template: TEMPLATE, prefer: 'text' } } });
    const stale = p.phones[0]!;
    await believeWindowOpen(p, [stale]);

    const outcome = await p.run();
    const sends = p.sendsTo(stale);
    expect(sends.map((r) => r.path.replace(/\d+/, 'N'))).toEqual(['/chat/conversations/start-whatsapp', '/chat/conversations/N/wba-send-template']);
    expect((sends[0]!.body as { send_type: string }).send_type).toBe('text');
    expect(sends[0]!.status).toBe(502);
    const conversation = (await p.states()).get(stale);
    expect(conversation).toMatchObject({ status: 'sent', via: 'template', action: 'template' });
    expect(sends[1]!.path).toBe(`/chat/conversations/${conversation?.conversationId}/wba-send-template`);
    expect(outcome.thisRun.sent).toBe(3);
  });

  it('fails the contact, not retryable, when the job has no template to fall back on', async () => {
    const p = await provided({ rows: 2, job: { message: { text: 'Oi {{name}}' } } });
    const stale = p.phones[1]!;
    await believeWindowOpen(p, [stale]);

    const outcome = await p.run();
    expect(p.sendsTo(stale)).toHaveLength(1);
    expect((await p.states()).get(stale)).toMatchObject({ status: 'failed', retryable: false, code: 131047, errorClass: 'window_closed' });
    expect(outcome.thisRun).toMatchObject({ failed: 1, skipped: 1 });
  });
});
