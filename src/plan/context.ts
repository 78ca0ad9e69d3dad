/**
 * Everything the planner knows of the world beyond the contact and the job, as values: the time of
 * the decision and what the store knows of this contact. A new fact a rule needs (suppression,
 * consent, the messaging budget…) is a new field here, filled by the caller.
 */
export interface PlanContext {
  /** The time of the decision, epoch ms. */
  now: number;
  /** The contact's last inbound message known to the store (webhook, sync), epoch ms; with `windowOfNumber`, only one to the number it goes from. */
  lastInboundAt?: number;
  /**
   * A pool of several numbers: the 24-hour window is the number's own (between the person and the number
   * they wrote to). `lastInboundAt` is then the last inbound message to the number the contact goes from
   * (absent when it came to another number, or to one not known), and the list's `last_inbound_at`
   * column, which names no number, is not read.
   */
  windowOfNumber?: true;
  /** The suppression list's entry for this phone, when it is on the list. */
  suppressed?: { reason: string; source: string };
  /** Whether the contact's consent cell is a clear yes; read only when the job requires opt-in (absent: not known to be). */
  optedIn?: boolean;
  /** The last first message another job of the company sent this phone, epoch ms. */
  lastMessagedAt?: number;
  /**
   * The first messages of the company's jobs to this phone whose message is known (its key, `messageKey`), with
   * their job and time (epoch ms): another job's, and this job's own when its state does not know the contact.
   */
  sentBefore?: ReadonlyArray<{ job: string; at: number; message: string }>;
  /** The messaging limit now, when the job sets `limits.daily_unique_recipients`. */
  budget?: Budget;
  /**
   * The zone the numbering plan gives the contact's phone, when it names one (`+5592…`: America/Manaus),
   * for a job that places contacts in their own zone (send_window, a start_at without an offset).
   */
  numberZone?: string;
  /** An experiment's job: this contact's draw, and what the store knows of the decision. */
  experiment?: ExperimentFacts;
}

/** What the planner knows of a contact in an experiment. */
export interface ExperimentFacts {
  /** In the test: the arm it gets (`armOf`); outside it, false. */
  test: boolean;
  arm?: string;
  /** The arm decided for the rest, once the decision is recorded. */
  winner?: string;
  /** When the decision is due (epoch ms): the test's first send plus decide_after_hours; unknown before the test sent. */
  decideAt?: number;
}

/** Room in the account's messaging limit: distinct recipients messaged outside their window in the rolling 24 hours. */
export interface Budget {
  /** How many more distinct recipients may be messaged outside their window now (0 or less: none). */
  room: number;
  /** When the next one may go if there is no room: the oldest counted recipient leaves the rolling 24 hours (epoch ms). */
  freesAt: number;
  /** This phone is already counted in the rolling 24 hours: messaging it again takes no room. */
  counted: boolean;
}
