import {
  DEFAULT_INBOUND_CHANNEL_ID,
  INBOUND_CONVERSATION_STATUS,
  INBOUND_DELIVERY_STATUS,
  INBOUND_SENDER_TYPE,
  PHONE_PATTERN,
} from './assumptions.js';
import type { SimCore } from './core.js';
import { invalid, notFound } from './http.js';
import { newMessage } from './model.js';
import { checkTextLength } from './rules/content.js';
import type { InboundResult } from './types.js';

/**
 * A client writes to the company: the client (by phone, created if new, or by id) gets a message in an open
 * conversation (S25), its 24-hour window opens (A23), and the webhook fires with direction inbound.
 * Throws an HttpError (422 bad input, 404 unknown client or channel).
 */
export function receiveInbound(
  core: SimCore,
  phoneOrClientId: string | number,
  text: string,
  channelId?: number,
): InboundResult {
  const { store, clock, webhook, log } = core;
  const now = clock.now();
  if (typeof text !== 'string' || text.trim() === '') invalid('The text field is required.');
  checkTextLength('text', text);
  const channel = store.channel(channelId ?? DEFAULT_INBOUND_CHANNEL_ID) ?? notFound('Channel');

  let client;
  if (typeof phoneOrClientId === 'number' || /^\d+$/.test(phoneOrClientId)) {
    client = store.clients.get(Number(phoneOrClientId)) ?? notFound('Client');
  } else {
    if (!PHONE_PATTERN.test(phoneOrClientId)) invalid('The phone field must be a phone number with a leading + and country code.');
    client = store.clientByPhone(phoneOrClientId) ?? store.createClient({ phone: phoneOrClientId }, now);
  }
  const conversation =
    (channelId === undefined
      ? store.latestOpenConversation(client.id)
      : store.openConversation(client.id, channel.id)) ??
    store.createConversation({ clientId: client.id, channelId: channel.id, status: INBOUND_CONVERSATION_STATUS }, now);

  const message = store.addMessage(
    conversation,
    newMessage(text, 'text', { senderType: INBOUND_SENDER_TYPE, senderId: client.id /* S38 */, deliveryStatus: INBOUND_DELIVERY_STATUS }),
    now,
  );
  client.lastInboundAt = now;
  client.lastInboundByChannel.set(conversation.channelId, now);
  log.counters.messagesInbound++;
  webhook.emit(message, conversation.id, client.id, 'inbound', now);
  return { client_id: client.id, conversation_id: conversation.id, message_id: message.id };
}
