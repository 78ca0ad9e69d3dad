/** The plan (`plan`, and each run's read of the list): the store's lookups, the planned pass, the estimate, and the dry run's result. */
export { estimateSend, requestsPerSend, type EstimateWarning, type SendEstimate } from './estimate.js';
export { planContextFor, planLookups, rememberedNumber, type PlanLookups } from './lookups.js';
export { percent, rejectRatioProblem, rendered, type PlanPass } from './pass.js';
export { planJob, saveRejects, type PlanResult } from './plan-job.js';
