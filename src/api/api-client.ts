import { type ApiClientOptions, createTransport } from './client.js';
import { type CatalogApi, catalogApi } from './endpoints/catalog.js';
import { type ClientsApi, clientsApi } from './endpoints/clients.js';
import { type ConversationsApi, conversationsApi } from './endpoints/conversations.js';
import { type CrmApi, crmApi } from './endpoints/crm.js';
import { type PagingApi, pagingApi } from './endpoints/paging.js';

/** One method per endpoint, each taking `{signal}` last; plus the paging helpers. */
export interface ApiClient extends ConversationsApi, ClientsApi, CrmApi, CatalogApi, PagingApi {
  /** Closes the connection pool once in-flight requests end. */
  close(): Promise<void>;
}

/** A client over ONE undici Pool for the platform's origin (keep-alive, pipelining 1). */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = createTransport(options);
  const conversations = conversationsApi(transport);
  return {
    ...conversations,
    ...clientsApi(transport),
    ...crmApi(transport),
    ...catalogApi(transport),
    ...pagingApi(conversations),
    close: () => transport.close(),
  };
}
