import {
  ACTIVE_CHANNEL_STATUS,
  OUTBOUND_DELIVERY_STATUS,
  OUTBOUND_SENDER_TYPE,
  OUTSIDE_WINDOW_DETAIL,
  PLATFORM_REFUSALS,
  PROVIDER_REFUSAL_CODES,
  TEMPLATE_CONTENT_TYPE,
  type RefusalReason,
} from './assumptions.js';
import type { SimCore } from './core.js';
import { newMessage, type NewMessage } from './model.js';
import { providerMessage } from './provider-codes.js';
import { decideSend, type ProviderRefusal, type SendVerdict } from './rules/send-decision.js';
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

/** The message to store, or the message's own refusal (template rules A22, free text outside the window A23). */
function content(
  core: SimCore,
  channel: SimChannel,
  official: boolean,
  client: SimClient,
  outgoing: ProviderSend,
): { fields: NewMessage; refusal?: undefined } | { fields?: undefined; refusal: ProviderRefusal } {
  if (outgoing.kind === 'template') {
    const check = checkTemplate(core.store.templates, outgoing.name, outgoing.language, outgoing.variables, core.templateDisplay);
    if (!check.ok)
      return { refusal: { kind: 'provider', reason: check.reason, code: PROVIDER_REFUSAL_CODES[check.reason], detail: check.detail } };
    const fields = newMessage(check.text, TEMPLATE_CONTENT_TYPE, OUTBOUND);
    fields.template = { name: check.template.name, language: check.template.language };
    return { fields };
  }
  if (official && outgoing.contentType === 'text' && !core.store.windowOpen(client, core.clock.now(), channel.id))
    return {
      refusal: { kind: 'provider', reason: 'outside_window', code: PROVIDER_REFUSAL_CODES.outside_window, detail: OUTSIDE_WINDOW_DETAIL },
    };
  const fields = newMessage(outgoing.text, outgoing.contentType, OUTBOUND);
  if (outgoing.fileUrl !== undefined) {
    fields.file_url = outgoing.fileUrl;
    fields.file_name = outgoing.fileName ?? null;
    fields.file_type = outgoing.contentType;
  }
  return { fields };
}

/**
 * The provider's side of a send, after client and conversation exist: `decideSend` (S45) over the facts of
 * this send. A refused send stores nothing and emits nothing (A24). A sent one is stored (A25), counts towards
 * the spam limit on wba/whatsapp (S47), gets its delivery fate (S51) and is emitted as outbound.
 */
export function send(
  core: SimCore,
  conversation: SimConversation,
  channel: SimChannel,
  client: SimClient,
  outgoing: ProviderSend,
): SendResult {
  const official = channel.type !== 'ww';
  const { provider, faults } = core;
  const made = content(core, channel, official, client, outgoing);
  const verdict = decideSend(
    {
      channelActive: channel.status === ACTIVE_CHANNEL_STATUS,
      official,
      wwDown: faults.get().wwDown,
      forcedCode: provider.forcedCode(client.phone),
      spamLimited: provider.spamLimited(channel.id),
      contentRefusal: made.refusal,
      template: outgoing.kind === 'template',
      marketingStopped: provider.marketingStopped(client.phone),
    },
    { providerError: () => faults.drawProviderError(), injectedFailure: () => faults.drawSendFailure() },
  );
  if (verdict.kind !== 'send') return refusal(verdict);
  // decideSend never lets a message with its own refusal go; this says so to the compiler.
  if (made.refusal) return refusal(made.refusal);

  const now = core.clock.now();
  const fields = made.fields;
  fields.reply_to_id = outgoing.replyToId ?? null;
  fields.client_message_id = outgoing.clientMessageId ?? null;
  const message = core.store.addMessage(conversation, fields, now);
  if (official) provider.sent(channel.id);
  core.delivery.schedule(message);
  core.log.counters.messagesOutbound++;
  core.webhook.emit(message, conversation.id, client.id, 'outbound', now);
  return { ok: true, message };
}

function refusal(verdict: Exclude<SendVerdict, { kind: 'send' }>): SendResult {
  if (verdict.kind === 'platform') return { ok: false, reason: verdict.reason, message: PLATFORM_REFUSALS[verdict.reason] };
  return { ok: false, reason: verdict.reason, message: providerMessage(verdict.code, verdict.detail) };
}
