import { readFile } from 'node:fs/promises';
import { signBody } from './sign.js';

export const SECRET = 'whsec_receiver_test';

let nextId = 1000;

/** A delivery body exactly as the platform would send it (A26 keys), plus its signature header. */
export function delivery(
  overrides: {
    id?: number;
    conversationId?: string;
    clientId?: string;
    direction?: 'inbound' | 'outbound';
    content?: string;
    createdAt?: string;
  } = {},
  secret = SECRET,
): { raw: Buffer; signature: string; messageId: string } {
  const id = overrides.id ?? nextId++;
  const direction = overrides.direction ?? 'inbound';
  const createdAt = overrides.createdAt ?? '2025-03-01T10:00:00.000Z';
  const body = {
    event: 'chat.message',
    data: {
      message: {
        id,
        body: overrides.content ?? 'hello',
        content_type: 'text',
        content: overrides.content ?? 'hello',
        sender_type: direction === 'inbound' ? 'client' : 'user',
        sender_id: null,
        file_url: null,
        file_name: null,
        delivery_status: 'sent',
        client_message_id: null,
        created_at: createdAt,
      },
      conversation_id: overrides.conversationId ?? '501',
      client_id: overrides.clientId ?? '77',
      direction,
    },
    timestamp: createdAt.replace('.000Z', '+00:00'),
  };
  const raw = Buffer.from(JSON.stringify(body));
  return { raw, signature: signBody(raw, secret), messageId: String(id) };
}

/** The lines of events.jsonl as objects (empty when the file does not exist). */
export async function storedEvents(file: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function storedWindow(file: string): Promise<{
  clients: Record<string, string>;
  phones: Record<string, string>;
  links: Record<string, string>;
} | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}
