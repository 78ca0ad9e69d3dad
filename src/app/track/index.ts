/** Reading the platform back: `track` (delivery, reads, opt-outs, until settled) and `reconcile` (the attempts in doubt), with the reads and pace they share. */
export type { ReadbackOptions } from './readback.js';
export { SETTLE_MINUTES, type ReconcileOutcome } from './reconcile-in-doubt.js';
export { reconcileJob, type ReconcileJobOptions, type ReconcileJobOutcome } from './reconcile.js';
export type { TrackPass } from './track-pass.js';
export { TRACK_INTERVAL_MS, trackJob, type PassStart, type TrackJobOptions, type TrackOutcome } from './track.js';
