import { STARTED_CONVERSATION_STATUS, STATUS_SEND_FAILED } from '../assumptions.js';
import { fail, invalid, ok, type Reply } from '../http.js';
import { send } from '../provider.js';
import type { Route, RouteContext } from '../router.js';
import { parseMessage } from '../rules/send-message.js';
import { parseStartWhatsapp, templateOutgoing } from '../rules/start-whatsapp.js';
import { asObject } from '../validate.js';
import { messageView } from '../views.js';
import { conversationOf } from './lookup.js';

/**
 * start-whatsapp: 422s first (nothing created); then the client is found or created by phone, an open
 * conversation on the same channel reused (A10) or a new `automated` one created; then the provider
 * decides. A refusal is 502 with the ids (documented rule 5, A3).
 */
function startWhatsapp(ctx: RouteContext): Reply {
  const { store, clock, log } = ctx.core;
  const phone = (ctx.body as { phone?: unknown } | undefined)?.phone;
  if (typeof phone === 'string') log.countStartWhatsapp(phone);

  const request = parseStartWhatsapp(ctx.body, (id) => store.channel(id));
  const now = clock.now();
  const client =
    store.clientByPhone(request.phone) ??
    store.createClient({ phone: request.phone, name: request.name, lastname: request.lastname }, now);
  const conversation =
    store.openConversation(client.id, request.channel.id) ??
    store.createConversation(
      {
        clientId: client.id,
        channelId: request.channel.id,
        status: STARTED_CONVERSATION_STATUS,
        topic: request.topic,
        pipelineId: request.pipelineId,
        pipelineStageId: request.pipelineStageId,
      },
      now,
    );
  const ids = { conversation_id: String(conversation.id), client_id: String(client.id) };
  const result = send(ctx.core, conversation, request.channel, client, request.outgoing);
  if (!result.ok)
    return {
      status: STATUS_SEND_FAILED,
      body: { success: true, message: result.message, meta: { send_status: 'failed', reason: result.reason }, data: ids },
    };
  return ok({ ...ids, message_id: result.message.id });
}

/** A6, A7: a message into an existing conversation; media on any channel. */
function postMessage(ctx: RouteContext): Reply {
  const { store } = ctx.core;
  const conversation = conversationOf(ctx);
  const request = parseMessage(ctx.body);
  // S36: reply_to_id must name a message of this same conversation.
  if (request.replyToId !== undefined && store.messages.get(request.replyToId)?.conversationId !== conversation.id)
    invalid('The reply_to_id field must be a message of this conversation.');
  const result = send(ctx.core, conversation, store.channel(conversation.channelId)!, store.clients.get(conversation.clientId)!, {
    kind: 'text',
    text: request.content,
    contentType: request.contentType,
    fileUrl: request.fileUrl,
    fileName: request.fileName,
    replyToId: request.replyToId,
    clientMessageId: request.clientMessageId,
  });
  return result.ok ? ok(messageView(result.message)) : fail(STATUS_SEND_FAILED, result.message);
}

/** A5, A22: a template into an existing wba/whatsapp conversation; works outside the window. S35: on `ww` → 422. */
function wbaSendTemplate(ctx: RouteContext): Reply {
  const { store } = ctx.core;
  const conversation = conversationOf(ctx);
  const channel = store.channel(conversation.channelId)!;
  if (channel.type === 'ww') invalid('wba-send-template is only available on wba/whatsapp conversations.');
  const outgoing = templateOutgoing(asObject(ctx.body));
  const result = send(ctx.core, conversation, channel, store.clients.get(conversation.clientId)!, outgoing);
  return result.ok ? ok(messageView(result.message)) : fail(STATUS_SEND_FAILED, result.message);
}

export const sendRoutes: Route[] = [
  { method: 'POST', pattern: '/chat/conversations/start-whatsapp', handler: startWhatsapp },
  { method: 'POST', pattern: '/chat/conversations/{id}/messages', handler: postMessage },
  { method: 'POST', pattern: '/chat/conversations/{id}/wba-send-template', handler: wbaSendTemplate },
];
