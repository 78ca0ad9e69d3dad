import type { Transport } from '../client.js';
import { dataArray, dataObject } from '../envelope.js';
import { pathId, pathSegment } from '../paths.js';
import type {
  CreateCustomFieldBody,
  CreateTagBody,
  CustomField,
  CustomFieldValues,
  Id,
  RequestOptions,
  Tag,
  UpdateCustomFieldBody,
} from '../types.js';

export interface CrmApi {
  /** A2: 201 with the tag. */
  createCrmTag(companyId: Id, body: CreateTagBody, options?: RequestOptions): Promise<Tag>;
  /** A16. */
  deleteCrmTag(companyId: Id, tagId: Id, options?: RequestOptions): Promise<void>;
  listCustomFields(companyId: Id, options?: RequestOptions): Promise<CustomField[]>;
  /** 201 with the field. */
  createCustomField(companyId: Id, body: CreateCustomFieldBody, options?: RequestOptions): Promise<CustomField>;
  /** POST, not PUT; `key` cannot change. 200 with the field. */
  updateCustomField(
    companyId: Id,
    fieldId: Id,
    body: UpdateCustomFieldBody,
    options?: RequestOptions,
  ): Promise<CustomField>;
  /** A17. */
  deleteCustomField(companyId: Id, fieldId: Id, options?: RequestOptions): Promise<void>;
  /** A17: writes `{<field key>: value}` for one entity (`client` is the documented type); answers the stored values. */
  setCustomFieldValues(
    companyId: Id,
    entityType: string,
    entityId: Id,
    values: CustomFieldValues,
    options?: RequestOptions,
  ): Promise<CustomFieldValues>;
}

export function crmApi(t: Transport): CrmApi {
  const company = (id: Id) => `/company/${pathId('companyId', id)}`;
  const tags = (c: Id) => `${company(c)}/crm-tags`;
  const fields = (c: Id) => `${company(c)}/crm-custom-fields`;
  return {
    async createCrmTag(companyId, body, options = {}) {
      return dataObject<Tag>(await t.send({ method: 'POST', path: tags(companyId), body, signal: options.signal }));
    },

    async deleteCrmTag(companyId, tagId, options = {}) {
      const path = `${tags(companyId)}/${pathId('tagId', tagId)}`;
      await t.send({ method: 'DELETE', path, signal: options.signal });
    },

    async listCustomFields(companyId, options = {}) {
      return dataArray<CustomField>(await t.send({ method: 'GET', path: fields(companyId), signal: options.signal }));
    },

    async createCustomField(companyId, body, options = {}) {
      const a = await t.send({ method: 'POST', path: fields(companyId), body, signal: options.signal });
      return dataObject<CustomField>(a);
    },

    async updateCustomField(companyId, fieldId, body, options = {}) {
      const { name, required, options: choices, active } = body;
      const a = await t.send({
        method: 'POST',
        path: `${fields(companyId)}/${pathId('fieldId', fieldId)}`,
        body: { name, required, options: choices, active },
        signal: options.signal,
      });
      return dataObject<CustomField>(a);
    },

    async deleteCustomField(companyId, fieldId, options = {}) {
      const path = `${fields(companyId)}/${pathId('fieldId', fieldId)}`;
      await t.send({ method: 'DELETE', path, signal: options.signal });
    },

    async setCustomFieldValues(companyId, entityType, entityId, values, options = {}) {
      const path = `${company(companyId)}/crm-custom-field-values/${pathSegment('entityType', entityType)}/${pathId('entityId', entityId)}`;
      return dataObject<CustomFieldValues>(await t.send({ method: 'POST', path, body: values, signal: options.signal }));
    },
  };
}
