import { notFound } from '../http.js';
import type { RouteContext } from '../router.js';
import type { SimClient, SimConversation } from '../types.js';

/** Path look-ups shared by the routes: a missing record is a 404 (A21). */

export function conversationOf(ctx: RouteContext): SimConversation {
  return ctx.core.store.conversations.get(Number(ctx.params.id)) ?? notFound('Conversation');
}

export function clientOf(ctx: RouteContext, name = 'id'): SimClient {
  return ctx.core.store.clients.get(Number(ctx.params[name])) ?? notFound('Client');
}

/** S37: the simulated platform's token is of one company (A18: ids are integers); any other companyId is a 404. */
export function requireCompany(ctx: RouteContext): void {
  if (Number(ctx.params.companyId) !== ctx.core.companyId) notFound('Company');
}
