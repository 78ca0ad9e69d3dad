import type { ApiClientOptions } from '../../api/index.js';
import type { Job } from '../../job/index.js';

/**
 * The platform client's settings a job decides: as many connections as requests may be in flight
 * (undici opens them only as requests need them, so they follow the adaptive limit), the job's
 * answer timeout (past it a request is in doubt), and whether HTTP/2 is offered.
 */
export function clientSettings(job: Job): Pick<ApiClientOptions, 'connections' | 'headersTimeoutMs' | 'bodyTimeoutMs' | 'allowH2'> {
  const { rate } = job;
  const timeoutMs = rate.timeout_s * 1000;
  return {
    connections: rate.concurrency === 'auto' ? rate.max_concurrency : rate.concurrency,
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    allowH2: rate.http2,
  };
}
