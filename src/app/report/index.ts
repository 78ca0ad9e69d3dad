/** What `status`, `report` and `show` read of a job, locally: the report's rows, pages and files, the states' counts, the pool's numbers, a contact's story, the zone times are shown in. */
export { contactsNotDone, inFlightOf, jobReport, jobStatus, loadJobReport, reportRowsFor, rewriteReport, writeJobReport, type JobReportOptions, type JobStatus } from './job-report.js';
export { jobZone, zoneOfJob } from './job-zone.js';
export { reportLayout, sendLimit, type ReportColumnsOption } from './output.js';
export type { NumberStatus } from './pool-status.js';
export { nextStep, showContact, type ContactStory } from './show-contact.js';
export { digestStates } from './states-digest.js';
