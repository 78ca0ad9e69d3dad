import type { Transport } from '../client.js';
import { dataArray } from '../envelope.js';
import { pathId } from '../paths.js';
import type { Channel, Id, RequestOptions, Template, TemplatesQuery } from '../types.js';

export interface CatalogApi {
  /** `{status: 'APPROVED'}` lists only templates ready to send; no status lists all. */
  listTemplates(query?: TemplatesQuery, options?: RequestOptions): Promise<Template[]>;
  /** The company's channels, to find `channel_id`. */
  listChannels(companyId: Id, options?: RequestOptions): Promise<Channel[]>;
}

export function catalogApi(t: Transport): CatalogApi {
  return {
    async listTemplates(query = {}, options = {}) {
      const a = await t.send({ method: 'GET', path: '/wba/templates', query: { status: query.status }, signal: options.signal });
      return dataArray<Template>(a);
    },

    async listChannels(companyId, options = {}) {
      const path = `/company/${pathId('companyId', companyId)}/channels`;
      return dataArray<Channel>(await t.send({ method: 'GET', path, signal: options.signal }));
    },
  };
}
