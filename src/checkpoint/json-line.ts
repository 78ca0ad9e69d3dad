/** A journal's events as text (one JSON object a line, or a row's text): read back, torn or foreign ones told apart. Pure: every backend stores events this way. */
import type { RecordedEvent } from './inbound.js';
import type { CheckpointEvent } from './types.js';

/** A line as an object, or undefined when it is torn or not JSON. */
export function parseLine(line: string): Record<string, unknown> | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const CONTACT_EVENTS = new Set(['attempt', 'sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'followup', 'delivery', 'reconciled']);

/** One line of a journal as an event, or undefined when it is not one (a torn write). */
export function parseEvent(line: string): CheckpointEvent | undefined {
  const value = parseLine(line);
  if (value === undefined) return undefined;
  const e = value as { t?: unknown; phone?: unknown; at?: unknown };
  if (e.t === 'header') return value as CheckpointEvent;
  if (typeof e.t !== 'string' || !CONTACT_EVENTS.has(e.t)) return undefined;
  if (typeof e.phone !== 'string' || typeof e.at !== 'string') return undefined;
  return value as CheckpointEvent;
}

/** A line of the webhook's events (the file store's log, the receiver's spool) as an event, or undefined when it is torn or not one. */
export function parseEventLine(line: string): RecordedEvent | undefined {
  const e = parseLine(line) as Partial<RecordedEvent> | undefined;
  if (e === undefined) return undefined;
  if (
    typeof e.message_id !== 'string' ||
    typeof e.conversation_id !== 'string' ||
    typeof e.client_id !== 'string' ||
    (e.direction !== 'inbound' && e.direction !== 'outbound') ||
    typeof e.created_at !== 'string'
  ) {
    return undefined;
  }
  return e as RecordedEvent;
}
