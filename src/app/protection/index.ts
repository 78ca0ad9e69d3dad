/** The account-protection rules' reads for one pass over a job's list (suppression, consent, windows, the messaging limit, the frequency cap), and what each decision notes for the next. */
export { complianceContext, complianceLookups, freshPass, noteDecision, outsideWindow, REFRESH_EVERY_MS, type ComplianceLookups, type OwnState } from './compliance.js';
