import {
  CONVERSATION_STATUSES,
  MESSAGES_DEFAULT_LIMIT,
  MESSAGES_MAX_LIMIT,
  PAGE_DEFAULT_SIZE,
  PAGE_MAX_SIZE,
  type ConversationStatus,
} from '../assumptions.js';
import { invalid, ok, type Reply } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { asObject, pageParams, paginate, queryInt, reqInt, reqString } from '../validate.js';
import { conversationView, messageView } from '../views.js';
import { conversationOf } from './lookup.js';

/** First index whose id is greater than `id` (ids ascending). */
function firstAfter(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cursor pagination (documented rules 1-4, A28): after_id prevails; neither cursor → newest page;
 * ascending order; has_more looks beyond the page in the cursor's direction.
 */
function listMessages(ctx: RouteContext): Reply {
  const conversation = conversationOf(ctx);
  const requested = queryInt(ctx.query, 'limit');
  if (requested !== undefined && requested < 1) invalid('The limit parameter must be at least 1.');
  const limit = Math.min(requested ?? MESSAGES_DEFAULT_LIMIT, MESSAGES_MAX_LIMIT);
  const afterId = queryInt(ctx.query, 'after_id');
  const beforeId = queryInt(ctx.query, 'before_id');
  const ids = conversation.messageIds;
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (afterId !== undefined) {
    start = firstAfter(ids, afterId);
    end = Math.min(ids.length, start + limit);
    hasMore = end < ids.length;
  } else {
    end = beforeId !== undefined ? firstAfter(ids, beforeId - 1) : ids.length;
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  }
  const page = ids.slice(start, end);
  const messages = ctx.core.store.messages;
  return {
    status: 200,
    body: {
      success: true,
      data: page.map((id) => messageView(messages.get(id)!)),
      pagination: {
        has_more: hasMore,
        oldest_id: page.length ? page[0]! : null,
        newest_id: page.length ? page[page.length - 1]! : (afterId ?? 0),
        limit,
      },
    },
  };
}

/** A12: conversations changed at or after `updated_at`, oldest change first, paged. */
function listConversations(ctx: RouteContext): Reply {
  const raw = ctx.query?.get('updated_at');
  let since = -Infinity;
  if (raw) {
    since = Date.parse(raw);
    if (Number.isNaN(since)) invalid('The updated_at parameter must be an ISO 8601 date-time.');
  }
  const { page, perPage } = pageParams(ctx.query, PAGE_DEFAULT_SIZE, PAGE_MAX_SIZE);
  const changed = [...ctx.core.store.conversations.values()]
    .filter((c) => c.updatedAt >= since)
    .sort((a, b) => a.updatedAt - b.updatedAt || a.id - b.id);
  const { data, pagination } = paginate(changed, page, perPage);
  return { status: 200, body: { success: true, data: data.map(conversationView), pagination } };
}

/** A11: every status present. */
function counts(ctx: RouteContext): Reply {
  const data = Object.fromEntries(CONVERSATION_STATUSES.map((s) => [s, 0])) as Record<ConversationStatus, number>;
  for (const c of ctx.core.store.conversations.values()) data[c.status]++;
  return ok(data);
}

/** A9; S18: stage, status and take-over changes move updated_at too. */
function putStage(ctx: RouteContext): Reply {
  const conversation = conversationOf(ctx);
  conversation.pipelineStageId = reqInt(asObject(ctx.body), 'pipeline_stage_id');
  conversation.updatedAt = ctx.core.clock.now();
  return ok(conversationView(conversation));
}

function putStatus(ctx: RouteContext): Reply {
  const conversation = conversationOf(ctx);
  const status = reqString(asObject(ctx.body), 'status');
  if (!(CONVERSATION_STATUSES as readonly string[]).includes(status))
    invalid(`The status field must be one of ${CONVERSATION_STATUSES.join(', ')}.`);
  conversation.status = status as ConversationStatus;
  conversation.updatedAt = ctx.core.clock.now();
  return ok(conversationView(conversation));
}

/** A9: automated → open; S19: already open is a no-op, pending or closed is a 422. */
function takeOver(ctx: RouteContext): Reply {
  const conversation = conversationOf(ctx);
  if (conversation.status === 'automated') {
    conversation.status = 'open';
    conversation.updatedAt = ctx.core.clock.now();
  } else if (conversation.status !== 'open') {
    invalid(`Only an automated conversation can be taken over; this one is ${conversation.status}.`);
  }
  return ok(conversationView(conversation));
}

export const conversationRoutes: Route[] = [
  { method: 'GET', pattern: '/chat/conversations', handler: listConversations },
  { method: 'GET', pattern: '/chat/conversations/counts', handler: counts },
  { method: 'GET', pattern: '/chat/conversations/{id}/messages', handler: listMessages },
  { method: 'PUT', pattern: '/chat/conversations/{id}/stage', handler: putStage },
  { method: 'PUT', pattern: '/chat/conversations/{id}/status', handler: putStatus },
  { method: 'POST', pattern: '/chat/conversations/{id}/take-over', handler: takeOver },
];
