/** The store's own commands: take a state folder in (`store import`), and stop a job a process is running (`stop`). */
export { importStateFolder, type StoreImportOutcome } from './import.js';
export { stopJob, stopJobFile, type StopJobOptions, type StopOutcome } from './stop-job.js';
