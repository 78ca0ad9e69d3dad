/**
 * The shape of a `chat.message` delivery (API document, Events; A26), checked after the signature.
 * Pure: bytes in, a normalised event or the reason it is refused out.
 */
import { z } from 'zod';

/** A delivery as the receiver uses it: ids as strings, times as ISO strings. */
export interface ChatMessageEvent {
  messageId: string;
  conversationId: string;
  clientId: string;
  direction: 'inbound' | 'outbound';
  /** `client`, `user`, `system`…; when the message omits it, derived from the direction. */
  senderType: string;
  content?: string;
  /** The message's time: its `created_at`, else the delivery's `timestamp`. */
  createdAt: string;
  /** The delivery's `timestamp`. */
  timestamp: string;
}

export type ParsedEvent = { ok: true; event: ChatMessageEvent } | { ok: false; reason: string };

/** Integer ids may come as numbers or digit strings (A4); both become strings. */
const id = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, 'expected an integer id')]);
/** Lenient on purpose: a refused delivery is never retried by the platform. */
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date-time');

const schema = z.object({
  event: z.literal('chat.message'),
  data: z.object({
    message: z.object({
      id,
      sender_type: z.string().optional(),
      content: z.string().nullish(),
      created_at: z.string().nullish(),
    }),
    conversation_id: id,
    client_id: id,
    direction: z.enum(['inbound', 'outbound']),
  }),
  timestamp: dateTime,
});

export function parseChatMessage(rawBody: Buffer): ParsedEvent {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
    return { ok: false, reason: `${where}: ${issue?.message ?? 'not a chat.message event'}` };
  }
  const { data, timestamp } = result.data;
  const created = data.message.created_at;
  return {
    ok: true,
    event: {
      messageId: String(data.message.id),
      conversationId: String(data.conversation_id),
      clientId: String(data.client_id),
      direction: data.direction,
      senderType: data.message.sender_type ?? (data.direction === 'inbound' ? 'client' : 'user'),
      ...(typeof data.message.content === 'string' ? { content: data.message.content } : {}),
      createdAt: toIso(created && !Number.isNaN(Date.parse(created)) ? created : timestamp),
      timestamp,
    },
  };
}

function toIso(dateTime: string): string {
  return new Date(Date.parse(dateTime)).toISOString();
}
