import { invalid, ok, type Reply } from './http.js';
import { deliveryControlRoutes } from './delivery-controls.js';
import { receiveInbound } from './inbound.js';
import { providerControlRoutes } from './provider-controls.js';
import { Router, type Route, type RouteContext } from './router.js';
import type { SimFaults } from './types.js';
import { asObject, optInt, optString, queryInt } from './validate.js';

/** Test controls under /__sim/: no auth, no faults, not counted. They drive the simulated world from outside. */

function inbound(ctx: RouteContext): Reply {
  const body = asObject(ctx.body);
  const who = optInt(body, 'client_id') ?? optString(body, 'phone');
  if (who === undefined) invalid('Send phone or client_id.');
  const text = optString(body, 'text') ?? '';
  return ok(receiveInbound(ctx.core, who, text, optInt(body, 'channel_id')));
}

function clock(ctx: RouteContext): Reply {
  return ok({ now: ctx.core.clock.now(), iso: new Date(ctx.core.clock.now()).toISOString() });
}

function advanceClock(ctx: RouteContext): Reply {
  const body = asObject(ctx.body);
  const ms = body.advance_ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) invalid('The advance_ms field must be a number of 0 or more.');
  ctx.core.clock.advance(ms);
  return clock(ctx);
}

function counters(ctx: RouteContext): Reply {
  const log = ctx.core.log;
  return ok({
    ...log.counters,
    max_requests_per_second: log.maxRequestsInWindow(1000),
    max_accepted_per_second: log.maxRequestsInWindow(1000, { acceptedOnly: true }),
  });
}

function faults(ctx: RouteContext): Reply {
  return ok(ctx.core.faults.snapshot());
}

function setFaults(ctx: RouteContext): Reply {
  try {
    ctx.core.faults.set(asObject(ctx.body) as SimFaults);
  } catch (err) {
    if (err instanceof RangeError) invalid(err.message);
    throw err;
  }
  return faults(ctx);
}

/** The request log; `?limit=N` gives the last N. */
function requests(ctx: RouteContext): Reply {
  const entries = ctx.core.log.entries;
  const limit = queryInt(ctx.query, 'limit');
  return ok(limit !== undefined && limit >= 0 ? entries.slice(Math.max(0, entries.length - limit)) : entries);
}

function webhookDeliveries(ctx: RouteContext): Reply {
  return ok(ctx.core.webhook.deliveries);
}

/** `{url, secret}` sets the webhook; `{}` removes it. */
function setWebhook(ctx: RouteContext): Reply {
  const body = asObject(ctx.body);
  const url = optString(body, 'url');
  const secret = optString(body, 'secret');
  if (url === undefined && secret === undefined) ctx.core.webhook.configure(undefined);
  else if (!url || secret === undefined) invalid('Send both url and secret, or neither to remove the webhook.');
  else ctx.core.webhook.configure({ url, secret });
  return { status: 200, body: { success: true } };
}

const controlRoutes: Route[] = [
  { method: 'POST', pattern: '/__sim/inbound', handler: inbound },
  { method: 'GET', pattern: '/__sim/clock', handler: clock },
  { method: 'POST', pattern: '/__sim/clock', handler: advanceClock },
  { method: 'GET', pattern: '/__sim/counters', handler: counters },
  { method: 'GET', pattern: '/__sim/faults', handler: faults },
  { method: 'POST', pattern: '/__sim/faults', handler: setFaults },
  { method: 'GET', pattern: '/__sim/requests', handler: requests },
  { method: 'GET', pattern: '/__sim/webhook-deliveries', handler: webhookDeliveries },
  { method: 'POST', pattern: '/__sim/webhook', handler: setWebhook },
  ...providerControlRoutes,
  ...deliveryControlRoutes,
];

export const controlRouter = new Router(controlRoutes);
