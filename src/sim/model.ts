import { DEFAULT_CLIENT_TYPE, isOpenStatus, WINDOW_MS, type ConversationStatus, type DeliveryStatus } from './assumptions.js';
import type { SeedData } from './seed.js';
import type {
  SimChannel,
  SimClient,
  SimConversation,
  SimCustomField,
  SimMessage,
  SimTag,
  SimTemplate,
} from './types.js';

export interface NewClient {
  name?: string;
  lastname?: string;
  email?: string;
  phone?: string;
}

export interface NewConversation {
  clientId: number;
  channelId: number;
  status: ConversationStatus;
  topic?: string | null;
  pipelineId?: number | null;
  pipelineStageId?: number | null;
}

/** A message before the store gives it an id and a time. */
export type NewMessage = Omit<SimMessage, 'id' | 'conversationId' | 'createdAt' | 'updatedAt'>;

/** A new message without a file, from one side; the filler fields (S31) are set here once. */
export function newMessage(
  text: string,
  contentType: string,
  from: { senderType: SimMessage['senderType']; senderId: number | null; deliveryStatus: DeliveryStatus },
): NewMessage {
  return {
    body: text,
    contentType,
    content: text,
    senderType: from.senderType,
    senderId: from.senderId,
    file_url: null,
    file_name: null,
    file_size: 0,
    file_type: '',
    read: false,
    read_at: null,
    deliveryStatus: from.deliveryStatus,
    failureReason: '',
    reply_to_id: null,
    client_message_id: null,
  };
}

/** The platform's data in memory, with the few operations every route shares. No HTTP, no clock of its own. */
export class Store {
  readonly channels: SimChannel[];
  readonly templates: SimTemplate[];
  readonly clients = new Map<number, SimClient>();
  readonly conversations = new Map<number, SimConversation>();
  readonly messages = new Map<number, SimMessage>();
  readonly tags = new Map<number, SimTag>();
  readonly customFields = new Map<number, SimCustomField>();
  private readonly channelById = new Map<number, SimChannel>();
  private readonly clientIdByPhone = new Map<string, number>();
  private readonly conversationIdsByClient = new Map<number, number[]>();
  private nextClientId = 1;
  private nextConversationId = 1;
  private nextMessageId = 1;
  private nextTagId: number;
  private nextFieldId: number;

  constructor(seed: SeedData) {
    this.channels = seed.channels;
    this.templates = seed.templates;
    for (const c of seed.channels) this.channelById.set(c.id, c);
    for (const t of seed.tags) this.tags.set(t.id, t);
    for (const f of seed.customFields) this.customFields.set(f.id, f);
    this.nextTagId = Math.max(0, ...seed.tags.map((t) => t.id)) + 1;
    this.nextFieldId = Math.max(0, ...seed.customFields.map((f) => f.id)) + 1;
  }

  channel(id: number): SimChannel | undefined {
    return this.channelById.get(id);
  }

  // Clients

  clientByPhone(phone: string): SimClient | undefined {
    const id = this.clientIdByPhone.get(phone);
    return id === undefined ? undefined : this.clients.get(id);
  }

  createClient(fields: NewClient, now: number): SimClient {
    const client: SimClient = {
      id: this.nextClientId++,
      name: fields.name ?? '',
      lastname: fields.lastname ?? '',
      email: fields.email ?? '',
      phone: fields.phone ?? '',
      image: '',
      client_type: DEFAULT_CLIENT_TYPE,
      assigned_to: 0,
      createdAt: now,
      updatedAt: now,
      tagIds: [],
      customFields: new Map(),
      lastInboundAt: null,
      lastInboundByChannel: new Map(),
    };
    this.clients.set(client.id, client);
    if (client.phone) this.clientIdByPhone.set(client.phone, client.id);
    return client;
  }

  /** Changes a client's phone, keeping the phone index right. */
  setClientPhone(client: SimClient, phone: string): void {
    if (client.phone && this.clientIdByPhone.get(client.phone) === client.id) this.clientIdByPhone.delete(client.phone);
    client.phone = phone;
    if (phone) this.clientIdByPhone.set(phone, client.id);
  }

  /**
   * A23: the free-text window is open when the client's last inbound message is younger than 24 hours;
   * with a channel, S60: the client's last inbound message to that number.
   */
  windowOpen(client: SimClient, now: number, channelId?: number): boolean {
    const last = channelId === undefined ? client.lastInboundAt : (client.lastInboundByChannel.get(channelId) ?? null);
    return last !== null && now - last < WINDOW_MS;
  }

  // Conversations

  /** A10: the newest conversation of the client on the channel whose status is not closed. */
  openConversation(clientId: number, channelId: number): SimConversation | undefined {
    const ids = this.conversationIdsByClient.get(clientId);
    if (!ids) return undefined;
    for (let i = ids.length - 1; i >= 0; i--) {
      const c = this.conversations.get(ids[i]!)!;
      if (c.channelId === channelId && isOpenStatus(c.status)) return c;
    }
    return undefined;
  }

  /** The newest open conversation of the client on any channel. */
  latestOpenConversation(clientId: number): SimConversation | undefined {
    const ids = this.conversationIdsByClient.get(clientId) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const c = this.conversations.get(ids[i]!)!;
      if (isOpenStatus(c.status)) return c;
    }
    return undefined;
  }

  createConversation(fields: NewConversation, now: number): SimConversation {
    const conversation: SimConversation = {
      id: this.nextConversationId++,
      clientId: fields.clientId,
      channelId: fields.channelId,
      status: fields.status,
      topic: fields.topic ?? null,
      pipelineId: fields.pipelineId ?? null,
      pipelineStageId: fields.pipelineStageId ?? null,
      createdAt: now,
      updatedAt: now,
      lastMessageId: null,
      messageIds: [],
    };
    this.conversations.set(conversation.id, conversation);
    const ids = this.conversationIdsByClient.get(fields.clientId);
    if (ids) ids.push(conversation.id);
    else this.conversationIdsByClient.set(fields.clientId, [conversation.id]);
    return conversation;
  }

  // Messages

  /** Stores a message with the next global id; the conversation's updated_at and last message move with it. */
  addMessage(conversation: SimConversation, fields: NewMessage, now: number): SimMessage {
    const message: SimMessage = { ...fields, id: this.nextMessageId++, conversationId: conversation.id, createdAt: now, updatedAt: now };
    this.messages.set(message.id, message);
    conversation.messageIds.push(message.id);
    conversation.lastMessageId = message.id;
    conversation.updatedAt = now;
    return message;
  }

  // CRM

  tagByName(name: string): SimTag | undefined {
    for (const tag of this.tags.values()) if (tag.name === name) return tag;
    return undefined;
  }

  createTag(fields: Omit<SimTag, 'id'>): SimTag {
    const tag: SimTag = { id: this.nextTagId++, ...fields };
    this.tags.set(tag.id, tag);
    return tag;
  }

  deleteTag(id: number): boolean {
    if (!this.tags.delete(id)) return false;
    for (const client of this.clients.values()) client.tagIds = client.tagIds.filter((t) => t !== id);
    return true;
  }

  fieldByKey(key: string): SimCustomField | undefined {
    for (const field of this.customFields.values()) if (field.key === key) return field;
    return undefined;
  }

  createField(fields: Omit<SimCustomField, 'id'>): SimCustomField {
    const field: SimCustomField = { id: this.nextFieldId++, ...fields };
    this.customFields.set(field.id, field);
    return field;
  }

  deleteField(id: number): boolean {
    const field = this.customFields.get(id);
    if (!field) return false;
    this.customFields.delete(id);
    for (const client of this.clients.values()) client.customFields.delete(field.key);
    return true;
  }
}
