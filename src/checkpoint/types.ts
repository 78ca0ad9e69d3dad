/**
 * The checkpoint journal: `<state>/<job>/checkpoint.jsonl`, one event a line, append-only.
 * A request that may reach the platform is preceded by an `attempt` (flushed to disk first);
 * its outcome follows. Replay folds the events into one ContactState per phone.
 */

/** How a message went out: the first start-whatsapp, or a retry on the known conversation. */
export type Via = 'start' | 'template' | 'message';

/** What the planner chose for a contact. */
export type ActionKind = 'template' | 'text';

export type FollowupStep = 'media' | `tag:${string}` | 'custom_fields';

/** A message's delivery status as the platform reports it (sent → delivered → read, or failed). */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What `track` read of a sent contact's message: the whole picture as of the read, not a change. */
export interface DeliveryFacts {
  status: DeliveryStatus;
  /** ISO: when the platform's record said delivered (its updatedAt then); unknown when first seen already read. */
  deliveredAt?: string;
  readAt?: string;
  failedAt?: string;
  /** The provider's code read from the failure reason, when it has one. */
  failureCode?: number;
  failureReason?: string;
}

/**
 * What one request carried for its contact: the template with its filled variables, or the filled
 * text. The job's media, after-send steps and conversation fields are the job's, not repeated here.
 */
export type RequestContent =
  | { template: { name: string; language: string; /** Position → value, as sent. */ variables: Record<string, string> } }
  | { text: string };

export type CheckpointEvent =
  | {
      t: 'header';
      /** Journal format version. */
      v: 1;
      job: string;
      /** Hash of the message content of the job (template, text, media, variables). */
      fingerprint: string;
      /** The content the fingerprint was made from, to say what changed. */
      content: Record<string, unknown>;
      /** The absolute path of the job file that started this state (absent in journals written before it was kept): for people, never compared. */
      job_file?: string;
      /** The host that job file was on (absent in journals written before it was kept): for people, never compared. */
      host?: string;
      /**
       * A random id of this job's state, minted with its first header and kept by every later one: the first
       * messages sent from this state carry it in the ledger, so a first message of the same job name from
       * another state (a copy taken in, a state started again) is told apart from its own.
       */
      state?: string;
      at: string;
    }
  | {
      t: 'attempt';
      phone: string;
      via: Via;
      action: ActionKind;
      /** Set when the attempt goes to a known conversation. */
      conversation_id?: string;
      line?: number;
      /** Which of the job's messages (`message.variants`: a name or an index, or `default`); absent when the job has none. */
      variant?: string;
      /** What the request carried (absent in journals written before it was kept): what `show` prints as sent. */
      content?: RequestContent;
      /** The number of a pool the request went from (absent for a job of one number). */
      channel_id?: number;
      at: string;
    }
  | {
      t: 'sent';
      phone: string;
      via: Via;
      action: ActionKind;
      conversation_id: string;
      /** Absent only when the platform never gave it (a 502 with a conversation id only). */
      client_id?: string;
      message_id: string;
      /** The media was planned but left out (template outside the window). */
      media_left_out?: boolean;
      /** A media message is owed after this one (it follows as its own message). */
      media_owed?: boolean;
      variant?: string;
      /** The number of a pool that sent it (absent for a job of one number). */
      channel_id?: number;
      at: string;
    }
  | {
      t: 'failed';
      phone: string;
      via: Via;
      action: ActionKind;
      /** HTTP status, or 0 when no answer came. */
      status: number;
      retryable: boolean;
      conversation_id?: string;
      client_id?: string;
      error: string;
      /** The WhatsApp provider's code read from the refusal, when there was one. */
      code?: number;
      /** What the run made of it (run/provider-classes.ts), e.g. `undeliverable`. */
      error_class?: string;
      at: string;
    }
  | {
      t: 'in_doubt';
      phone: string;
      via: Via;
      action: ActionKind;
      conversation_id?: string;
      client_id?: string;
      error: string;
      at: string;
    }
  | {
      t: 'skipped';
      phone: string;
      reason: string;
      /** Why, for people, when the reason alone does not say it (`already_sent`: the job that sent the message, and when). */
      detail?: string;
      line?: number;
      at: string;
    }
  | {
      t: 'deferred';
      phone: string;
      reason: string;
      not_before: string;
      line?: number;
      /** quiet_hours: the contact's zone. */
      zone?: string;
      /** A deferral made by a provider refusal (131049): its code and class. */
      code?: number;
      error_class?: string;
      at: string;
    }
  | {
      /** `track` read the message of a sent contact: its delivery status and times (the whole picture, not a change). */
      t: 'delivery';
      phone: string;
      status: DeliveryStatus;
      delivered_at?: string;
      read_at?: string;
      failed_at?: string;
      failure_code?: number;
      failure_reason?: string;
      at: string;
    }
  | {
      /** `reconcile` read the platform back for a contact in doubt: its message is there (sent), is not (not_sent), or cannot be told (in_doubt, with why). */
      t: 'reconciled';
      phone: string;
      result: 'sent';
      via: Via;
      action: ActionKind;
      conversation_id: string;
      client_id?: string;
      message_id: string;
      /** When the platform made the message (its createdAt). */
      sent_at: string;
      at: string;
    }
  | { t: 'reconciled'; phone: string; result: 'not_sent'; conversation_id?: string; client_id?: string; at: string }
  | { t: 'reconciled'; phone: string; result: 'in_doubt'; reason: string; at: string }
  | {
      t: 'followup';
      phone: string;
      step: FollowupStep;
      ok: boolean;
      /** Written before a step that sends a message (media) leaves; its outcome follows. */
      attempt?: boolean;
      /** No answer after the step's request went out: it may have been delivered. */
      in_doubt?: boolean;
      error?: string;
      at: string;
    };

export type ContactStatus = 'pending' | 'sent' | 'failed' | 'in_doubt' | 'skipped' | 'deferred';

/** What every state knows: the key, how many requests left for it, and its after-send steps. */
interface StateBase {
  phone: string;
  /** Number of `attempt` events for this phone. */
  attempts: number;
  line?: number;
  /** ISO time of the last event. */
  updatedAt?: string;
  /** Follow-up steps and whether each is done. A step once done stays done. */
  followups: Record<string, boolean>;
  /** Last error of each follow-up step that is not done (absent when none failed). */
  followupErrors?: Record<string, string>;
  /** Follow-up steps in doubt: sent with no answer (or no outcome recorded); repeated only on request. */
  followupsInDoubt?: Record<string, true>;
  /** How many times the provider's per-user marketing limit (131049) deferred this contact: each doubles the next wait. */
  marketingLimits?: number;
  /** A pool's job: the number its last request went from; once sent, the number that sent it. */
  channelId?: number;
}

/** The provider's refusal behind a failure or a deferral: its code, and what the run made of it. */
interface ProviderRefusal {
  code?: number;
  errorClass?: string;
}

/**
 * What an unsent contact may know from earlier attempts: the platform's ids once given are never
 * forgotten, so a later send goes to the same conversation instead of a second start-whatsapp.
 */
interface Known {
  via?: Via;
  action?: ActionKind;
  /** The message variant of the last attempt, when the job has variants. */
  variant?: string;
  conversationId?: string;
  clientId?: string;
}

export type PendingState = StateBase & Known & { status: 'pending' };

/** Sent: the conversation and message by type. The client id is missing only when the platform never gave it (a 502 with only a conversation id). */
export type SentState = StateBase & {
  status: 'sent';
  via: Via;
  action: ActionKind;
  conversationId: string;
  clientId?: string;
  messageId: string;
  /** ISO time of the `sent` event (replies are counted after it). */
  sentAt: string;
  mediaLeftOut?: boolean;
  /** A media message is owed after the first one (recorded with the send). */
  mediaOwed?: boolean;
  /** Which of the job's messages went, when the job has variants. */
  variant?: string;
  /** `reconciled`: found on the platform by `reconcile` after the run lost the answer. */
  source?: 'reconciled';
  /** What `track` last read of the message's delivery. */
  delivery?: DeliveryFacts;
};

export type FailedState = StateBase &
  Known &
  ProviderRefusal & { status: 'failed'; via: Via; action: ActionKind; /** HTTP status, 0 when no answer came. */ httpStatus: number; retryable: boolean; error: string };

/** A request left and no outcome is known: it may have reached the platform. */
export type InDoubtState = StateBase &
  Known & {
    status: 'in_doubt';
    via: Via;
    action: ActionKind;
    error: string;
    /** ISO time of the attempt whose answer is missing (what `reconcile` reads the platform after). */
    attemptAt?: string;
    /** Why the last `reconcile` could not tell whether the message went out. */
    unresolved?: string;
  };

export type SkippedState = StateBase & Known & { status: 'skipped'; reason: string; detail?: string };

/** Not sent now, on purpose: it may go from `notBefore` (ISO) on. */
export type DeferredState = StateBase & Known & ProviderRefusal & { status: 'deferred'; reason: string; notBefore: string; /** quiet_hours: the contact's zone. */ zone?: string };

/** One contact's state after replay, typed by what each status knows. */
export type ContactState = PendingState | SentState | FailedState | InDoubtState | SkippedState | DeferredState;

/** Any state but sent. */
export type UnsentState = Exclude<ContactState, SentState>;

/** The first line of a journal: which job and which message content it belongs to. */
export type HeaderEvent = Extract<CheckpointEvent, { t: 'header' }>;

/** Every event about one contact (all but the header). */
export type ContactEvent = Exclude<CheckpointEvent, { t: 'header' }>;
