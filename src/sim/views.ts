import { isoZ } from './clock.js';
import type { Store } from './model.js';
import type { SimClient, SimConversation, SimMessage, SimTag } from './types.js';

/** How records leave the simulator: the API's JSON shapes (documented fields, A8, A16, A26). */

export function messageView(m: SimMessage) {
  return {
    id: m.id,
    body: m.body,
    contentType: m.contentType,
    content: m.content,
    senderType: m.senderType,
    senderId: m.senderId,
    file_url: m.file_url,
    file_name: m.file_name,
    file_size: m.file_size,
    file_type: m.file_type,
    read: m.read,
    read_at: m.read_at,
    deliveryStatus: m.deliveryStatus,
    failureReason: m.failureReason,
    createdAt: isoZ(m.createdAt),
    updatedAt: isoZ(m.updatedAt),
    reply_to_id: m.reply_to_id,
    reply_to_message_id: m.reply_to_id ?? 0,
    edited_at: null,
    client_message_id: m.client_message_id,
    call: { direction: '', outcome: '', duration: 0 },
    reactions: [],
  };
}

/** A26: the webhook's message object, snake_case keys. */
export function webhookMessageView(m: SimMessage) {
  return {
    id: m.id,
    body: m.body,
    content_type: m.contentType,
    content: m.content,
    sender_type: m.senderType,
    sender_id: m.senderId,
    file_url: m.file_url,
    file_name: m.file_name,
    delivery_status: m.deliveryStatus,
    client_message_id: m.client_message_id,
    created_at: isoZ(m.createdAt),
  };
}

/** A8. */
export function conversationView(c: SimConversation) {
  return {
    id: c.id,
    client_id: c.clientId,
    channel_id: c.channelId,
    status: c.status,
    topic: c.topic,
    pipeline_id: c.pipelineId,
    pipeline_stage_id: c.pipelineStageId,
    created_at: isoZ(c.createdAt),
    updated_at: isoZ(c.updatedAt),
    last_message_id: c.lastMessageId,
  };
}

export function clientView(c: SimClient) {
  return {
    id: c.id,
    name: c.name,
    lastname: c.lastname,
    email: c.email,
    phone: c.phone,
    image: c.image,
    client_type: c.client_type,
    assigned_to: c.assigned_to,
    created_at: isoZ(c.createdAt),
    updated_at: isoZ(c.updatedAt),
  };
}

/** The single-client read (S14): tags as records, addresses and contact aliases empty, custom-field values by key. */
export function clientDetailView(c: SimClient, store: Store) {
  return {
    ...clientView(c),
    tags: c.tagIds.map((id) => store.tags.get(id)).filter((t): t is SimTag => t !== undefined),
    addresses: [],
    contact_aliases: [],
    custom_fields: Object.fromEntries(c.customFields),
  };
}
