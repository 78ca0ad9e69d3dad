import { DateTime } from 'luxon';
import type { Job, SendWindow } from '../../job/index.js';
import { nextOpening, type Action } from '../../plan/index.js';
import type { MessagingRoom } from '../account/index.js';

/** Something the send would run into before it ends at the job's rate. */
export type EstimateWarning =
  /** The sending window open now in `zone` closes at `closesAt`, before the send ends: the contacts left then wait for its next opening. */
  | { kind: 'quiet_hours'; zone: string; closesAt: number }
  /** The store's messaging limit has `room` places left: `waiting` contacts wait for room (the first when `freesAt` comes, if known). */
  | { kind: 'messaging_limit'; limit: number; room: number; waiting: number; freesAt?: string };

/** How long the contacts that would be sent now take at the job's rate, and when that ends. */
export interface SendEstimate {
  /** Contacts sent a first message. */
  contacts: number;
  /** Requests their sends take: each first message and each after-send step (media, a tag, the custom fields), `owedSteps` included. */
  requests: number;
  /** Of `requests`, the after-send steps owed by contacts an earlier run sent (a tag that failed): `run` takes them too. */
  owedSteps: number;
  /** The job's rate in requests per second (per_minute counts when it is the slower one). */
  perSecond: number;
  durationMs: number;
  /** Epoch ms: when the plan was made, and when a run started then would send its last request. */
  startsAt: number;
  endsAt: number;
  warnings: EstimateWarning[];
}

/**
 * The requests one contact's send takes: the first message, then the steps after it (the media as its
 * own message, a request per tag, one for the custom fields). Every one goes through the job's
 * limiter, so each counts against `rate`. 0 for an action that sends nothing.
 */
export function requestsPerSend(action: Action, job: Pick<Job, 'after_send'>): number {
  if (action.kind !== 'template' && action.kind !== 'text') return 0;
  const media = action.media?.placement === 'followup' ? 1 : 0;
  const customFields = Object.keys(job.after_send.custom_fields).length > 0 ? 1 : 0;
  return 1 + media + job.after_send.tags.length + customFields;
}

/** Requests per second at most under `per_second` and `per_minute` together. */
export function ratePerSecond(rate: Pick<Job['rate'], 'per_second' | 'per_minute'>): number {
  return rate.per_minute === undefined ? rate.per_second : Math.min(rate.per_second, rate.per_minute / 60);
}

export interface EstimateInput {
  contacts: number;
  requests: number;
  /** Of `requests`, the after-send steps owed by contacts sent earlier (default none). */
  owedSteps?: number;
  rate: Pick<Job['rate'], 'per_second' | 'per_minute'>;
  /** Epoch ms the send would start. */
  start: number;
  /** The job's sending window, and the zones of the contacts sent now (zone → contacts). */
  window?: Pick<SendWindow, 'from' | 'to' | 'days'>;
  zones?: readonly string[];
  /** The store's messaging limit now, and the contacts the planner deferred for want of room in it. */
  room?: MessagingRoom;
  waitingForRoom?: number;
}

/**
 * The send's length at the job's rate (requests ÷ rate, the limiter being the bound) and what it
 * would cross: a sending window that closes before it ends (in any zone of the contacts), or a
 * messaging limit with no room for everyone. Pure.
 */
export function estimateSend(input: EstimateInput): SendEstimate {
  const perSecond = ratePerSecond(input.rate);
  const durationMs = Math.round((input.requests / perSecond) * 1000);
  const endsAt = input.start + durationMs;
  const warnings: EstimateWarning[] = [];
  if (input.window !== undefined && input.contacts > 0) {
    for (const zone of input.zones ?? []) {
      const closesAt = windowCloses(input.start, input.window, zone);
      if (closesAt !== undefined && closesAt < endsAt) warnings.push({ kind: 'quiet_hours', zone, closesAt });
    }
  }
  const { room } = input;
  const waiting = input.waitingForRoom ?? 0;
  if (room?.limit !== undefined && room.room !== undefined && waiting > 0) {
    warnings.push({ kind: 'messaging_limit', limit: room.limit, room: room.room, waiting, ...(room.freesAt !== undefined && { freesAt: room.freesAt }) });
  }
  return { contacts: input.contacts, requests: input.requests, owedSteps: input.owedSteps ?? 0, perSecond, durationMs, startsAt: input.start, endsAt, warnings };
}

/** When the window open at `now` in `zone` closes (epoch ms), or undefined when it is closed at `now`. */
export function windowCloses(now: number, window: Pick<SendWindow, 'from' | 'to' | 'days'>, zone: string): number | undefined {
  if (nextOpening(now, window, zone) !== undefined) return undefined;
  const day = DateTime.fromMillis(now, { zone }).startOf('day');
  const [h = 0, m = 0, s = 0] = window.to.split(':').map(Number);
  return h === 24 ? day.plus({ days: 1 }).startOf('day').toMillis() : day.set({ hour: h, minute: m, second: s, millisecond: 0 }).toMillis();
}
