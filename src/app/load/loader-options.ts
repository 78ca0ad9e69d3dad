import type { LoaderOptions } from '../../contacts/index.js';
import type { Job, LoadedJob } from '../../job/index.js';

/** The loader's options, folded from the job once (a module of its own: reading a list needs no API client). */
export function loaderOptions(job: Job, namedColumns: LoadedJob['namedColumns'] = []): LoaderOptions {
  return {
    columns: job.columns,
    namedColumns,
    ...(job.default_country ? { defaultCountry: job.default_country } : {}),
    ...(job.input.format ? { format: job.input.format } : {}),
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    requireMobile: job.input.require_mobile,
  };
}
