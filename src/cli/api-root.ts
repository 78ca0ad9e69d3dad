/**
 * The composition root of the platform client: the one place that builds it. A command gets its
 * client here, from the connection its flags and environment give (or the demo's simulator) and, for
 * a job's sends, the job's own settings (connections, answer timeout, HTTP/2: app/run/client-settings.ts),
 * and passes it down; nothing else in src/ calls createApiClient (test/architecture.test.ts holds it).
 * The store's root is store-root.ts.
 */
import { createApiClient, type ApiClient, type ApiClientOptions } from '../api/index.js';
import { clientSettings } from '../app/index.js';
import type { Job } from '../job/index.js';

/** The platform client for `connection`; with `job`, sized and timed as that job's sends need. */
export function openApi(connection: ApiClientOptions, job?: Job): ApiClient {
  return createApiClient({ ...connection, ...(job && clientSettings(job)) });
}
