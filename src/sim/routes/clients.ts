import {
  EMAIL_PATTERN,
  PAGE_DEFAULT_SIZE,
  PAGE_MAX_SIZE,
  PHONE_PATTERN,
  STATUS_CREATED,
} from '../assumptions.js';
import { invalid, ok, type Reply } from '../http.js';
import type { Store } from '../model.js';
import type { Route, RouteContext } from '../router.js';
import type { SimClient, SimTag } from '../types.js';
import { asObject, optString, optStringArray, pageParams, paginate, reqString } from '../validate.js';
import { clientDetailView, clientView } from '../views.js';
import { clientOf } from './lookup.js';

function checkPhone(store: Store, phone: string, self?: SimClient): void {
  if (!PHONE_PATTERN.test(phone)) invalid('The phone field must be a phone number with a leading + and country code.');
  const owner = store.clientByPhone(phone);
  if (owner && owner !== self) invalid('The phone has already been taken.');
}

function checkEmail(email: string): void {
  if (!EMAIL_PATTERN.test(email)) invalid('The email field must be a valid email address.');
}

/** The company tag of that name, created when none exists (A15). */
function tagNamed(store: Store, name: string): SimTag {
  return store.tagByName(name) ?? store.createTag({ name, color: '', description: '' });
}

/** A13 and the documented rule: at least one of email or phone. S1: created answers 201. */
function createClient(ctx: RouteContext): Reply {
  const { store, clock } = ctx.core;
  const body = asObject(ctx.body);
  const email = optString(body, 'email') || undefined;
  const phone = optString(body, 'phone') || undefined;
  if (email === undefined && phone === undefined) invalid('The email field is required when phone is not present.');
  if (phone !== undefined) checkPhone(store, phone);
  if (email !== undefined) checkEmail(email);
  const client = store.createClient(
    { name: optString(body, 'name'), lastname: optString(body, 'lastname'), email, phone },
    clock.now(),
  );
  return ok(clientView(client), STATUS_CREATED);
}

/** A13: page, per_page, phone (exact). */
function listClients(ctx: RouteContext): Reply {
  const { store } = ctx.core;
  const { page, perPage } = pageParams(ctx.query, PAGE_DEFAULT_SIZE, PAGE_MAX_SIZE);
  const phone = ctx.query?.get('phone');
  let clients: SimClient[];
  if (phone) {
    const found = store.clientByPhone(phone);
    clients = found ? [found] : [];
  } else {
    clients = [...store.clients.values()];
  }
  const { data, pagination } = paginate(clients, page, perPage);
  return { status: 200, body: { success: true, data: data.map(clientView), pagination } };
}

function getClient(ctx: RouteContext): Reply {
  return ok(clientDetailView(clientOf(ctx), ctx.core.store));
}

/** A14: given fields replace the stored ones; `tags` replaces the tag list. */
function updateClient(ctx: RouteContext): Reply {
  const { store, clock } = ctx.core;
  const client = clientOf(ctx);
  const body = asObject(ctx.body);
  const name = optString(body, 'name');
  const lastname = optString(body, 'lastname');
  const email = optString(body, 'email');
  const phone = optString(body, 'phone');
  const image = optString(body, 'image');
  const tags = optStringArray(body, 'tags');
  if (phone) checkPhone(store, phone, client);
  if (email) checkEmail(email);
  if (!(email ?? client.email) && !(phone ?? client.phone)) invalid('The email field is required when phone is not present.');
  if (name !== undefined) client.name = name;
  if (lastname !== undefined) client.lastname = lastname;
  if (email !== undefined) client.email = email;
  if (image !== undefined) client.image = image;
  if (phone !== undefined) store.setClientPhone(client, phone);
  if (tags !== undefined) client.tagIds = [...new Set(tags.map((t) => tagNamed(store, t).id))];
  client.updatedAt = clock.now();
  return ok(clientDetailView(client, store));
}

/** A15: adds a tag by name, idempotent; answers the tag. */
function addClientTag(ctx: RouteContext): Reply {
  const { store, clock } = ctx.core;
  const client = clientOf(ctx);
  const tag = tagNamed(store, reqString(asObject(ctx.body), 'name'));
  if (!client.tagIds.includes(tag.id)) {
    client.tagIds.push(tag.id);
    client.updatedAt = clock.now();
  }
  return ok(tag);
}

export const clientRoutes: Route[] = [
  { method: 'POST', pattern: '/clients', handler: createClient },
  { method: 'GET', pattern: '/clients', handler: listClients },
  { method: 'GET', pattern: '/client/{id}', handler: getClient },
  { method: 'PUT', pattern: '/client/{id}', handler: updateClient },
  { method: 'POST', pattern: '/client/{id}/tags', handler: addClientTag },
];
