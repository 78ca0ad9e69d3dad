/** Loading a job for a use case: the job file with its store (a follow-up completed from its earlier job), the loader's options, and the content its state pins. */
export { checkContent, describePlace, startedFrom, type JobPlace, type PinnedContent } from './content-guard.js';
export { loadJobIn, type ContactList } from './load-job.js';
export { loaderOptions } from './loader-options.js';
