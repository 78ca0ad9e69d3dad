import { DEFAULT_FIELD_TYPE, FIELD_KEY_PATTERN, STATUS_CREATED } from '../assumptions.js';
import { invalid, notFound, ok, type Reply } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import type { CustomFieldValue, SimCustomField } from '../types.js';
import { asObject, optBool, optString, optStringArray, reqString } from '../validate.js';
import { clientOf, requireCompany } from './lookup.js';

/** A2, A16; S22: a tag name already in use is a 422. */
function createTag(ctx: RouteContext): Reply {
  requireCompany(ctx);
  const { store } = ctx.core;
  const body = asObject(ctx.body);
  const name = reqString(body, 'name');
  if (store.tagByName(name)) invalid('The name has already been taken.');
  const tag = store.createTag({
    name,
    color: optString(body, 'color') ?? '',
    description: optString(body, 'description') ?? '',
  });
  return ok(tag, STATUS_CREATED);
}

/** A16: removes the tag from every client too. */
function deleteTag(ctx: RouteContext): Reply {
  requireCompany(ctx);
  if (!ctx.core.store.deleteTag(Number(ctx.params.tagId))) notFound('Tag');
  return { status: 200, body: { success: true } };
}

function listFields(ctx: RouteContext): Reply {
  requireCompany(ctx);
  return ok([...ctx.core.store.customFields.values()]);
}

function fieldOf(ctx: RouteContext): SimCustomField {
  requireCompany(ctx);
  return ctx.core.store.customFields.get(Number(ctx.params.fieldId)) ?? notFound('Custom field');
}

/** Documented: 201 on create. S8: key is lower snake case and unique; `type` optional, default text. */
function createField(ctx: RouteContext): Reply {
  requireCompany(ctx);
  const { store } = ctx.core;
  const body = asObject(ctx.body);
  const name = reqString(body, 'name');
  const key = reqString(body, 'key');
  if (!FIELD_KEY_PATTERN.test(key)) invalid('The key field must be lower case letters, digits and underscores, starting with a letter.');
  if (store.fieldByKey(key)) invalid('The key has already been taken.');
  const field = store.createField({
    company_id: ctx.core.companyId,
    name,
    key,
    type: optString(body, 'type') || DEFAULT_FIELD_TYPE,
    required: optBool(body, 'required') ?? false,
    options: optStringArray(body, 'options') ?? [],
    active: optBool(body, 'active') ?? true,
  });
  return ok(field, STATUS_CREATED);
}

/** Documented: POST updates, 200, `key` is not part of the body (S23: a non-null `key` is a 422; S30: null = absent). */
function updateField(ctx: RouteContext): Reply {
  const field = fieldOf(ctx);
  const body = asObject(ctx.body);
  if (body.key != null) invalid('The key field cannot be updated; it is not part of the update body.');
  const name = optString(body, 'name');
  if (name !== undefined && name.trim() === '') invalid('The name field must not be empty.');
  const required = optBool(body, 'required');
  const options = optStringArray(body, 'options');
  const active = optBool(body, 'active');
  if (name !== undefined) field.name = name;
  if (required !== undefined) field.required = required;
  if (options !== undefined) field.options = options;
  if (active !== undefined) field.active = active;
  return ok(field);
}

/** A17: values leave every client. */
function deleteField(ctx: RouteContext): Reply {
  const field = fieldOf(ctx);
  ctx.core.store.deleteField(field.id);
  return { status: 200, body: { success: true } };
}

/**
 * A17: values by key for a client; unknown key 422, unknown client 404; answers all the client's values.
 * S24: entityType other than `client` is a 422; a value is a string, number or boolean, null removes it;
 * a field with options accepts only one of them; an inactive field refuses values.
 */
function writeValues(ctx: RouteContext): Reply {
  requireCompany(ctx);
  const { store, clock } = ctx.core;
  if (ctx.params.entityType !== 'client') invalid(`The entity type "${ctx.params.entityType}" is not supported; use client.`);
  const client = clientOf(ctx, 'entityId');
  const body = asObject(ctx.body);
  const writes: Array<[string, CustomFieldValue | null]> = [];
  for (const [key, value] of Object.entries(body)) {
    const field = store.fieldByKey(key);
    if (!field) invalid(`The custom field "${key}" does not exist.`);
    if (!field.active) invalid(`The custom field "${key}" is inactive.`);
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      invalid(`The value of "${key}" must be a string, number, boolean or null.`);
    if (value !== null && field.options.length > 0 && !field.options.includes(String(value)))
      invalid(`The value of "${key}" must be one of ${field.options.join(', ')}.`);
    writes.push([key, value]);
  }
  for (const [key, value] of writes) {
    if (value === null) client.customFields.delete(key);
    else client.customFields.set(key, value);
  }
  if (writes.length) client.updatedAt = clock.now();
  return ok(Object.fromEntries(client.customFields));
}

export const crmRoutes: Route[] = [
  { method: 'POST', pattern: '/company/{companyId}/crm-tags', handler: createTag },
  { method: 'DELETE', pattern: '/company/{companyId}/crm-tags/{tagId}', handler: deleteTag },
  { method: 'GET', pattern: '/company/{companyId}/crm-custom-fields', handler: listFields },
  { method: 'POST', pattern: '/company/{companyId}/crm-custom-fields', handler: createField },
  { method: 'POST', pattern: '/company/{companyId}/crm-custom-fields/{fieldId}', handler: updateField },
  { method: 'DELETE', pattern: '/company/{companyId}/crm-custom-fields/{fieldId}', handler: deleteField },
  {
    method: 'POST',
    pattern: '/company/{companyId}/crm-custom-field-values/{entityType:str}/{entityId}',
    handler: writeValues,
  },
];
