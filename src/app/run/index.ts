/** A campaign run: one pass over the list read, sent and settled with its collaborators (budget places, ledger, number pool, the rows a run going on reads), the outcome and summary it leaves, `run --wait`, and the test send. */
export { clientSettings } from './client-settings.js';
export { decideIfDue } from './experiment-decision.js';
export type { RunJobOptions } from './options.js';
export type { RunOutcome } from './outcome.js';
export { runJob } from './run-job.js';
export type { PoolNumberFigures } from './sender-pool.js';
export { outcomeJson } from './summary-file.js';
export { testSend, type TestSend, type TestSendOptions, type TestSendResult } from './test-send.js';
export { runUntilDone, type RunUntilDoneOptions, type RunUntilDoneResult, type WaitInfo } from './until-done.js';
