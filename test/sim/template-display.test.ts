import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/sim/index.js';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

const PROMO = { template_name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF10' } };
const REMINDER = { template_name: 'appointment_reminder', language: 'en_US', variables: { '1': 'Ana', '2': 'Monday', '3': '10:00' } };

async function listed(display: 'full' | 'body' | undefined, fields: Record<string, unknown>) {
  const h = await harness(display === undefined ? {} : { templateDisplay: display });
  const res = await h.start(fields);
  expect(res.status).toBe(200);
  const page = await h.call('GET', `/chat/conversations/${res.body.data.conversation_id}/messages`);
  const [message] = page.body.data;
  expect(message.body).toBe(message.content);
  return message.body as string;
}

describe('how the message list shows a template message', () => {
  it('lists every component one a line by default: header, body, footer and each button’s label', async () => {
    expect(await listed(undefined, PROMO)).toBe('Oi Ana! Seu cupom de Black Friday é BF10.\nResponda SAIR para não receber mais.\nParar promoções');
    expect(await listed('full', REMINDER)).toBe('Reminder for Ana\nYour appointment is on Monday at 10:00.');
  });

  it('lists the body alone with templateDisplay body, without header, footer or buttons', async () => {
    expect(await listed('body', PROMO)).toBe('Oi Ana! Seu cupom de Black Friday é BF10.');
    expect(await listed('body', REMINDER)).toBe('Your appointment is on Monday at 10:00.');
  });

  it('shows free text as sent whatever the setting', async () => {
    const h = await harness({ templateDisplay: 'body' });
    h.state.inbound('+5511999990001', 'oi');
    const res = await h.start({ send_type: 'text', text: 'Olá Ana' });
    expect(h.state.messages.get(res.body.data.message_id)!.body).toBe('Olá Ana');
  });

  it('refuses a setting it does not know', async () => {
    await expect(startSimulator({ templateDisplay: 'header' as 'full' })).rejects.toThrow(/templateDisplay must be one of full, body/);
  });
});
