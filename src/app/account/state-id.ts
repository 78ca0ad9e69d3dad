/**
 * A job's state has an id of its own, minted with its first header (`HeaderEvent.state`): the first
 * messages sent from it carry it in the ledger, so the same job name's messages from another state (the
 * job started again from nothing, or a second copy taken in from another folder) are told apart from its
 * own, and never sent again as its own would not be.
 */
import { randomUUID } from 'node:crypto';
import type { HeaderEvent } from '../../checkpoint/index.js';
import type { OwnState } from '../protection/index.js';

/** A new state's id. */
export function newStateId(): string {
  return randomUUID();
}

/** The job's own state as the compliance lookups read it, from its header (none: the job has no state here). */
export function ownState(header: HeaderEvent | undefined): OwnState {
  return header === undefined ? { exists: false } : { exists: true, ...(header.state !== undefined && { state: header.state }) };
}
