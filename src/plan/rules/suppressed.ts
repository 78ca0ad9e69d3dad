import type { Gate } from './input.js';

/** A phone on the suppression list gets nothing, from any job. */
export const suppressed: Gate = ({ context }) => (context.suppressed ? { kind: 'skip', reason: 'suppressed' } : undefined);
