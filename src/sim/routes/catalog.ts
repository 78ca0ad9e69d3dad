import { ok, type Reply } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { requireCompany } from './lookup.js';

/** Templates, filtered by `status` when given (S20: compared upper-cased). */
function listTemplates(ctx: RouteContext): Reply {
  const status = ctx.query?.get('status')?.toUpperCase();
  const templates = ctx.core.store.templates;
  return ok(status ? templates.filter((t) => t.status === status) : templates);
}

function listChannels(ctx: RouteContext): Reply {
  requireCompany(ctx);
  return ok(ctx.core.store.channels);
}

export const catalogRoutes: Route[] = [
  { method: 'GET', pattern: '/wba/templates', handler: listTemplates },
  { method: 'GET', pattern: '/company/{companyId}/channels', handler: listChannels },
];
