import { invalid, ok, type Reply } from './http.js';
import { isProviderCode } from './provider-codes.js';
import type { Route, RouteContext } from './router.js';
import { asObject, optStringArray, type Body } from './validate.js';

/**
 * Controls of the provider's state (S49), under /__sim/provider: a code forced for phones, phones that stopped
 * marketing messages, the account's spam limit. Each answers the state, as GET /__sim/provider does.
 */

function snapshot(ctx: RouteContext): Reply {
  return ok(ctx.core.provider.snapshot());
}

/** `phones` (array) or `phone` (string); `required` makes one of them compulsory. */
function phonesOf(body: Body, required: true): string[];
function phonesOf(body: Body, required: false): string[] | undefined;
function phonesOf(body: Body, required: boolean): string[] | undefined {
  const list = optStringArray(body, 'phones');
  const one = body.phone;
  if (one !== undefined && one !== null && typeof one !== 'string') invalid('The phone field must be a string.');
  const phones = [...(list ?? []), ...(typeof one === 'string' ? [one] : [])];
  if (phones.length > 0) return phones;
  if (required) invalid('Send phones (an array of E.164 phones) or phone.');
  return undefined;
}

/** A RangeError of the state (a bad phone or code) becomes a 422 naming it. */
function change(ctx: RouteContext, apply: () => void): Reply {
  try {
    apply();
  } catch (err) {
    if (err instanceof RangeError) invalid(err.message);
    throw err;
  }
  return snapshot(ctx);
}

function forceError(ctx: RouteContext): Reply {
  const body = asObject(ctx.body);
  const phones = phonesOf(body, true);
  const code = body.code;
  if (!isProviderCode(code)) invalid('The code field must be a provider error code the simulator knows, e.g. 131026.');
  return change(ctx, () => ctx.core.provider.force(phones, code));
}

function clearError(ctx: RouteContext): Reply {
  const phones = phonesOf(asObject(ctx.body), false);
  return change(ctx, () => ctx.core.provider.clearForced(phones));
}

function stopMarketing(ctx: RouteContext): Reply {
  const phones = phonesOf(asObject(ctx.body), true);
  return change(ctx, () => ctx.core.provider.stopMarketing(phones));
}

function resumeMarketing(ctx: RouteContext): Reply {
  const phones = phonesOf(asObject(ctx.body), false);
  return change(ctx, () => ctx.core.provider.resumeMarketing(phones));
}

function setSpamLimit(ctx: RouteContext): Reply {
  const body = asObject(ctx.body);
  const after = body.afterSends;
  if (typeof after !== 'number') invalid('The afterSends field must be a whole number of 0 or more.');
  const channel = body.channel_id;
  if (channel !== undefined && typeof channel !== 'number') invalid('The channel_id field must be a channel id.');
  return change(ctx, () => ctx.core.provider.setSpamLimit(after, channel));
}

function liftSpamLimit(ctx: RouteContext): Reply {
  return change(ctx, () => ctx.core.provider.setSpamLimit(null));
}

export const providerControlRoutes: Route[] = [
  { method: 'GET', pattern: '/__sim/provider', handler: snapshot },
  { method: 'POST', pattern: '/__sim/provider/forced-errors', handler: forceError },
  { method: 'DELETE', pattern: '/__sim/provider/forced-errors', handler: clearError },
  { method: 'POST', pattern: '/__sim/provider/stopped-marketing', handler: stopMarketing },
  { method: 'DELETE', pattern: '/__sim/provider/stopped-marketing', handler: resumeMarketing },
  { method: 'POST', pattern: '/__sim/provider/spam-limit', handler: setSpamLimit },
  { method: 'DELETE', pattern: '/__sim/provider/spam-limit', handler: liftSpamLimit },
];
