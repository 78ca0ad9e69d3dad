import { invalid, ok, type Reply } from './http.js';
import type { Route, RouteContext } from './router.js';
import type { SimDelivery } from './provider-types.js';
import { asObject } from './validate.js';

/** Delivery statuses over time (S51, S52): GET answers the settings in force (null = off). */
function delivery(ctx: RouteContext): Reply {
  return ok(ctx.core.delivery.get());
}

/** The body's fields (SimDelivery) over the settings in force, or over the defaults when off; turns it on. */
function setDelivery(ctx: RouteContext): Reply {
  try {
    ctx.core.delivery.set(asObject(ctx.body) as SimDelivery);
  } catch (err) {
    if (err instanceof RangeError) invalid(err.message);
    throw err;
  }
  return delivery(ctx);
}

/** Off: messages sent from now on stay `sent`; those already sent keep their fate. */
function stopDelivery(ctx: RouteContext): Reply {
  ctx.core.delivery.set(null);
  return delivery(ctx);
}

export const deliveryControlRoutes: Route[] = [
  { method: 'GET', pattern: '/__sim/delivery', handler: delivery },
  { method: 'POST', pattern: '/__sim/delivery', handler: setDelivery },
  { method: 'DELETE', pattern: '/__sim/delivery', handler: stopDelivery },
];
