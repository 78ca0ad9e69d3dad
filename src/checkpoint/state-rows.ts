import type { ContactState } from './types.js';

/**
 * The report-row source, a capability of the port's `ContactStates`: a job's states one at a time,
 * in the states' order, for a writer of a million rows (report.csv) that makes no object per contact.
 * Each contact is read as the values its state holds that differ from one contact to the next (its
 * phone, ids, counts and times, as numbers) and a *shape* that every contact whose state is otherwise
 * the same shares: a writer makes the rest of a row once per shape, from one state of it. A source that
 * has no cheaper way gives every contact shape -1, and the writer reads its state whole.
 */

/** Which of `StateRows`' values a contact's state holds there (one bit each): the others are absent, or part of its shape. */
export const HELD = {
  conversationId: 1 << 0,
  clientId: 1 << 1,
  messageId: 1 << 2,
  attempts: 1 << 3,
  line: 1 << 4,
  httpStatus: 1 << 5,
  updatedAt: 1 << 6,
  sentAt: 1 << 7,
  notBefore: 1 << 8,
  deliveredAt: 1 << 9,
  readAt: 1 << 10,
} as const;

export interface StateRowsOptions {
  /**
   * Fields of a state the reader never reads (besides the values below): states that differ only in
   * them may share a shape.
   */
  unread?: readonly string[];
}

/**
 * A cursor over a job's states. After `next()` returns true, the fields below are the current
 * contact's; a value `held` does not name is meaningless. Ids are the platform's plain decimal ids as
 * numbers; times are epoch milliseconds.
 */
export interface StateRows {
  /** Moves to the next contact; false after the last. */
  next(): boolean;
  /** Equal for two contacts whose states differ only in the values `held` names, their phones and the unread fields; -1: read `state()`. */
  readonly shape: number;
  /** The values the current state holds as the fields below (HELD bits). Asked once per shape. */
  readonly held: number;
  /** The phone's digits (an E.164 phone without its `+`). */
  readonly phone: number;
  readonly conversationId: number;
  readonly clientId: number;
  readonly messageId: number;
  readonly attempts: number;
  readonly line: number;
  readonly httpStatus: number;
  readonly updatedAt: number;
  readonly sentAt: number;
  readonly notBefore: number;
  readonly deliveredAt: number;
  readonly readAt: number;
  /** The current contact's state, whole (a new object). */
  state(): ContactState;
}

/** The general source: each state of `states` read whole (shape -1), for states kept as objects. */
export function wholeRows(states: Iterable<ContactState>): StateRows {
  const it = states[Symbol.iterator]();
  let current: ContactState | undefined;
  return {
    next(): boolean {
      const step = it.next();
      current = step.done === true ? undefined : step.value;
      return current !== undefined;
    },
    shape: -1,
    held: 0,
    phone: 0,
    conversationId: 0,
    clientId: 0,
    messageId: 0,
    attempts: 0,
    line: 0,
    httpStatus: 0,
    updatedAt: 0,
    sentAt: 0,
    notBefore: 0,
    deliveredAt: 0,
    readAt: 0,
    state(): ContactState {
      if (current === undefined) throw new Error('no current state: call next() first');
      return current;
    },
  };
}
