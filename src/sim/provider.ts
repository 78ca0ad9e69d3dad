import {
  ACTIVE_CHANNEL_STATUS,
  OUTBOUND_DELIVERY_STATUS,
  OUTBOUND_SENDER_TYPE,
  REFUSAL_MESSAGES,
  TEMPLATE_CONTENT_TYPE,
  type RefusalReason,
} from './assumptions.js';
import type { SimCore } from './core.js';
import { newMessage, type NewMessage } from './model.js';
import type { Outgoing } from './rules/start-whatsapp.js';
import { checkTemplate } from './rules/templates.js';
import type { SimChannel, SimClient, SimConversation, SimMessage } from './types.js';

/** Company sends through the API (A25). */
const OUTBOUND = { senderType: OUTBOUND_SENDER_TYPE, senderId: null, deliveryStatus: OUTBOUND_DELIVERY_STATUS } as const;

/** An outgoing message as the provider sees it (start-whatsapp's and the messages endpoint's alike). */
export type ProviderSend = Outgoing & { replyToId?: number; clientMessageId?: string };

export type SendResult =
  | { ok: true; message: SimMessage }
  | { ok: false; reason: RefusalReason; message: string };

/**
 * The provider's side of a send, after client and conversation exist. In order: inactive channel (A27),
 * web session down, template rules (A22), free text outside the 24-hour window (A23), injected failure.
 * A refused send stores nothing and emits nothing (A24). A sent one is stored (A25) and emitted as outbound.
 */
export function send(
  core: SimCore,
  conversation: SimConversation,
  channel: SimChannel,
  client: SimClient,
  outgoing: ProviderSend,
): SendResult {
  const now = core.clock.now();
  const official = channel.type !== 'ww';
  if (channel.status !== ACTIVE_CHANNEL_STATUS) return refuse('channel_inactive');
  if (!official && core.faults.get().wwDown) return refuse('web_session_down');

  let fields: NewMessage;
  if (outgoing.kind === 'template') {
    const check = checkTemplate(core.store.templates, outgoing.name, outgoing.language, outgoing.variables);
    if (!check.ok) return refuse(check.reason, check.detail);
    fields = newMessage(check.text, TEMPLATE_CONTENT_TYPE, OUTBOUND);
    fields.template = { name: check.template.name, language: check.template.language };
  } else {
    if (official && outgoing.contentType === 'text' && !core.store.windowOpen(client, now)) return refuse('outside_window');
    fields = newMessage(outgoing.text, outgoing.contentType, OUTBOUND);
    if (outgoing.fileUrl !== undefined) {
      fields.file_url = outgoing.fileUrl;
      fields.file_name = outgoing.fileName ?? null;
      fields.file_type = outgoing.contentType;
    }
  }
  if (core.faults.drawSendFailure()) return refuse('injected_failure');

  fields.reply_to_id = outgoing.replyToId ?? null;
  fields.client_message_id = outgoing.clientMessageId ?? null;
  const message = core.store.addMessage(conversation, fields, now);
  core.log.counters.messagesOutbound++;
  core.webhook.emit(message, conversation.id, client.id, 'outbound', now);
  return { ok: true, message };
}

function refuse(reason: RefusalReason, detail?: string): SendResult {
  const text = REFUSAL_MESSAGES[reason];
  return { ok: false, reason, message: detail ? `${text} (${detail})` : text };
}
