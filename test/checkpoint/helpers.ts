import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { CheckpointEvent, RecordedEvent } from '../../src/checkpoint/index.js';

const dirs: string[] = [];

/** A fresh temp folder, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-checkpoint-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

export const AT = '2025-01-01T00:00:00.000Z';

export function attempt(phone: string, extra: Partial<Extract<CheckpointEvent, { t: 'attempt' }>> = {}): CheckpointEvent {
  return { t: 'attempt', phone, via: 'start', action: 'template', at: AT, ...extra };
}

export function sent(phone: string, n = 1, extra: Partial<Extract<CheckpointEvent, { t: 'sent' }>> = {}): CheckpointEvent {
  return {
    t: 'sent',
    phone,
    via: 'start',
    action: 'template',
    conversation_id: `conv-${n}`,
    client_id: `client-${n}`,
    message_id: `msg-${n}`,
    at: AT,
    ...extra,
  };
}

export function failed(phone: string, extra: Partial<Extract<CheckpointEvent, { t: 'failed' }>> = {}): CheckpointEvent {
  return { t: 'failed', phone, via: 'start', action: 'template', status: 400, retryable: false, error: 'bad request', at: AT, ...extra };
}

export function phoneOf(i: number): string {
  return `+55119${String(i).padStart(8, '0')}`;
}

/** An inbound message as the webhook records it (the client's phone when known). */
export function inbound(id: string, clientId: string, createdAt: string, phone?: string): RecordedEvent {
  return {
    message_id: id,
    conversation_id: `conv-${clientId}`,
    client_id: clientId,
    direction: 'inbound',
    sender_type: 'client',
    content: 'hello',
    created_at: createdAt,
    received_at: createdAt,
    source: 'webhook',
    ...(phone !== undefined && { phone }),
  };
}
