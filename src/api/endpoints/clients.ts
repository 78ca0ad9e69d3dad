import { CLIENTS_QUERY_KEYS } from '../assumptions.js';
import type { Transport } from '../client.js';
import { dataObject, page } from '../envelope.js';
import { pathId } from '../paths.js';
import type {
  Client,
  ClientDetail,
  ClientsPage,
  ClientsQuery,
  CreateClientBody,
  Id,
  PagePagination,
  RequestOptions,
  Tag,
  UpdateClientBody,
} from '../types.js';

export interface ClientsApi {
  /** At least one of email or phone. */
  createClient(body: CreateClientBody, options?: RequestOptions): Promise<Client>;
  /** A13: page, per_page, phone. */
  listClients(query?: ClientsQuery, options?: RequestOptions): Promise<ClientsPage>;
  /** With tags, addresses and contact aliases. */
  getClient(id: Id, options?: RequestOptions): Promise<ClientDetail>;
  /** A14: given fields replace the stored ones; `tags` replaces the tag list. */
  updateClient(id: Id, body: UpdateClientBody, options?: RequestOptions): Promise<ClientDetail>;
  /** A15: idempotent; creates the company's CRM tag when none has that name. */
  addClientTag(clientId: Id, name: string, options?: RequestOptions): Promise<Tag>;
}

const PAGE_PAGINATION = ['current_page', 'per_page', 'total', 'last_page'] as const;

export function clientsApi(t: Transport): ClientsApi {
  const one = (id: Id) => `/client/${pathId('clientId', id)}`;
  return {
    async createClient(body, options = {}) {
      return dataObject<Client>(await t.send({ method: 'POST', path: '/clients', body, signal: options.signal }));
    },

    async listClients(query = {}, options = {}) {
      const a = await t.send({
        method: 'GET',
        path: '/clients',
        query: Object.fromEntries(CLIENTS_QUERY_KEYS.map((key) => [key, query[key]])),
        signal: options.signal,
      });
      return page<Client, PagePagination>(a, PAGE_PAGINATION);
    },

    async getClient(id, options = {}) {
      return dataObject<ClientDetail>(await t.send({ method: 'GET', path: one(id), signal: options.signal }));
    },

    async updateClient(id, body, options = {}) {
      return dataObject<ClientDetail>(await t.send({ method: 'PUT', path: one(id), body, signal: options.signal }));
    },

    async addClientTag(clientId, name, options = {}) {
      const a = await t.send({ method: 'POST', path: `${one(clientId)}/tags`, body: { name }, signal: options.signal });
      return dataObject<Tag>(a);
    },
  };
}
