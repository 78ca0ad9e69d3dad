import { isDeepStrictEqual } from 'node:util';
import { AuthError, readProviderCode, type Message } from '../../api/index.js';
import { deliveryAfter, deliveryEvent, type DeliveryFacts, type DeliveryStatus, type JobStore, type SentState } from '../../checkpoint/index.js';
import type { PlatformReads } from './platform-reads.js';

/** The provider code of "the person stopped marketing messages from this business": the phone goes on the suppression list. */
export const OPTED_OUT_CODE = 131050;

/** One pass of `track` over the sent contacts not settled yet. */
export interface TrackPass {
  /** Messages that could still change when the pass started: the ones it reads. */
  due: number;
  /** Messages read. */
  checked: number;
  /** Of them, whose delivery changed (recorded). */
  changed: number;
  /** Not found in their conversation (the platform lost it, or the ids are wrong). */
  notFound: number;
  /** Reads that failed (the contact is read again next pass). */
  errors: number;
  firstError?: string;
  /** Phones whose message failed with 131050 in this pass. */
  optedOut: string[];
  /** Sent contacts still to watch after the pass: not read, not failed, younger than track.max_age_hours. */
  unsettled: number;
}

export interface TrackPassContext {
  state: JobStore;
  reads: PlatformReads;
  now: number;
  maxAgeMs: number;
  concurrency: number;
  signal?: AbortSignal;
  /** A message failed with 131050: the phone goes on the suppression list before the failure is recorded (a crash between the two never loses it). */
  onOptedOut?: (phone: string) => Promise<void>;
  /** Phones that replied after their message: settled, not read again. */
  replied?: ReadonlyMap<string, unknown>;
  /** Before the first read: how many messages the pass reads. */
  onStart?: (due: number) => void;
}

/**
 * A sent contact is settled when its message was read or failed, or its person replied once its
 * delivery was read back (a reply says more than a read), or once it is older than the job's `track.max_age_hours` and was read at
 * least once: its message can no longer change what the report says. Pure.
 */
export function isSettled(s: SentState, now: number, maxAgeMs: number, replied?: ReadonlyMap<string, unknown>): boolean {
  const d = s.delivery;
  if (d !== undefined && replied?.has(s.phone)) return true;
  if (d?.status === 'read' || d?.status === 'failed') return true;
  return d !== undefined && now - Date.parse(s.sentAt) > maxAgeMs;
}

/** The delivery a message shows, over what was known (times once known stay). Pure. */
export function deliveryOf(message: Pick<Message, 'deliveryStatus' | 'read' | 'read_at' | 'updatedAt' | 'failureReason'>, before: DeliveryFacts | undefined): DeliveryFacts {
  const status = statusOf(message);
  const deliveredAt = before?.deliveredAt ?? (status === 'delivered' ? message.updatedAt : undefined);
  const readAt = message.read_at ?? before?.readAt ?? (status === 'read' ? message.updatedAt : undefined);
  const failedAt = before?.failedAt ?? (status === 'failed' ? message.updatedAt : undefined);
  const reason = status === 'failed' && message.failureReason ? message.failureReason : undefined;
  const code = reason !== undefined ? readProviderCode(reason) : undefined;
  return {
    status,
    ...(deliveredAt !== undefined && { deliveredAt }),
    ...(status === 'read' && readAt !== undefined && { readAt }),
    ...(failedAt !== undefined && status === 'failed' && { failedAt }),
    ...(code !== undefined && { failureCode: code }),
    ...(reason !== undefined && { failureReason: reason }),
  };
}

function statusOf(message: Pick<Message, 'deliveryStatus' | 'read'>): DeliveryStatus {
  if (message.read || message.deliveryStatus === 'read') return 'read';
  if (message.deliveryStatus === 'delivered') return 'delivered';
  if (message.deliveryStatus === 'failed') return 'failed';
  return 'sent';
}

/** Reads the message of every sent contact not settled (through the reads' limiter), records each change. */
export async function trackPass(ctx: TrackPassContext): Promise<TrackPass> {
  const { state, now, maxAgeMs } = ctx;
  const { replied } = ctx;
  const unsettled = (s: SentState) => !isSettled(s, now, maxAgeMs, replied);
  const list = [...state.states.values()].filter((s): s is SentState => s.status === 'sent' && unsettled(s));
  const pass: TrackPass = { due: list.length, checked: 0, changed: 0, notFound: 0, errors: 0, optedOut: [], unsettled: 0 };
  ctx.onStart?.(list.length);
  const due = list[Symbol.iterator]();
  let refused: unknown;
  // `concurrency` workers pull from one queue: as many reads in flight as the job allows, and no more.
  const worker = async (): Promise<void> => {
    for (let next = due.next(); !next.done; next = due.next()) {
      if (ctx.signal?.aborted || refused !== undefined) return;
      const s = next.value;
      try {
        await readOne(ctx, s, pass);
      } catch (err) {
        if (ctx.signal?.aborted) return;
        if (err instanceof AuthError) refused ??= err; // a refused token refuses every read: stop
        pass.errors += 1;
        pass.firstError ??= `${s.phone}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, ctx.concurrency) }, worker));
  if (refused !== undefined) throw refused;
  for (const s of state.states.values()) if (s.status === 'sent' && unsettled(s)) pass.unsettled += 1;
  return pass;
}

async function readOne(ctx: TrackPassContext, s: SentState, pass: TrackPass): Promise<void> {
  const id = Number(s.messageId);
  if (!Number.isSafeInteger(id)) throw new Error(`message id "${s.messageId}" is not a number the platform can look up`);
  const message = await ctx.reads.message(s.conversationId, id);
  pass.checked += 1;
  if (!message) {
    pass.notFound += 1;
    return;
  }
  const facts = deliveryOf(message, s.delivery);
  const event = deliveryEvent(s.phone, facts, new Date(ctx.now).toISOString());
  // Nothing new (or a status that would go back: statuses may arrive out of order): nothing recorded.
  if (s.delivery !== undefined && isDeepStrictEqual(deliveryAfter(s.delivery, event), s.delivery)) return;
  const optedOut = facts.status === 'failed' && facts.failureCode === OPTED_OUT_CODE && s.delivery?.status !== 'failed';
  if (optedOut) await ctx.onOptedOut?.(s.phone);
  await ctx.state.record(event);
  pass.changed += 1;
  if (optedOut) pass.optedOut.push(s.phone);
}
