/** The planner's vocabulary: channels, window knowledge, and the action chosen for one contact. */

export type ChannelType = 'wba' | 'whatsapp' | 'ww';

export interface ChannelInfo {
  id: number;
  type: ChannelType;
  name?: string;
  /** 1 active; any other status is not sending (A27). */
  status?: number;
}

export interface RenderedTemplate {
  name: string;
  language: string;
  /** Position → value, positions in order. */
  variables: Record<string, string>;
}

export interface Media {
  url: string;
  content_type: string;
  file_name?: string;
}

/** Media sent inside start-whatsapp (ww) or as a message after it (wba/whatsapp, window open only). */
export interface PlannedMedia<P extends 'inline' | 'followup' = 'inline' | 'followup'> {
  media: Media;
  placement: P;
}

/** Why a contact gets nothing, though the contact itself is fine. */
export type SkipReason =
  /** wba/whatsapp, the 24-hour window is closed (or unknown) and the job has no template. */
  | 'outside_24h_window'
  /** ww sends text only and the job has no text (preflight refuses such a job first). */
  | 'no_text_for_ww'
  /** The phone is on the state folder's suppression list (by hand, an import, an opt-out reply, or the provider). */
  | 'suppressed'
  /** The job requires opt-in and the contact's consent cell is not a clear yes. */
  | 'no_opt_in'
  /** Another job of the company already sent the person this very message (the same template and values, or the same text). */
  | 'already_sent'
  /**
   * A contact this job already holds (deferred earlier, e.g. waiting for an experiment's winner)
   * whose message can no longer be filled: skipped with the reject's reason (`held.ts`).
   */
  | PlanRejectReason;

/** Why a contact is not sent now but may be later (the rules that say so arrive with their issues). */
export type DeferReason = 'quiet_hours' | 'daily_limit' | 'recently_messaged' | 'marketing_limit' | 'start_at' | 'experiment';

/** Why a contact can never get this job's message (written to rejects.csv). */
export type PlanRejectReason = `missing_variable:${string}` | 'text_too_long';

export type Action =
  | {
      kind: 'template';
      template: RenderedTemplate;
      /** wba/whatsapp with the window open: the job's media as a follow-up message. */
      media?: PlannedMedia<'followup'>;
      /** The job has media but the window is closed on wba/whatsapp, so it is not sent. */
      mediaLeftOut: boolean;
      /** Which of the job's messages (`message.variants`): its name, its index, or `default`; absent when the job has no variants. */
      variant?: string;
    }
  | {
      kind: 'text';
      text: string;
      media?: PlannedMedia;
      /** wba/whatsapp: the template to send instead if the provider says the window has closed after all. */
      fallbackTemplate?: RenderedTemplate;
      variant?: string;
    }
  | {
      kind: 'skip';
      reason: SkipReason;
      /** For people: `already_sent` names the job that sent it and when. */
      detail?: string;
      /** `already_sent`: the job that sent the person this message, and when (epoch ms). */
      earlier?: { job: string; at: number };
    }
  /** Not now: from `notBefore` (epoch ms) on. */
  | { kind: 'defer'; reason: DeferReason; notBefore: number; /** quiet_hours: the contact's zone, to say when in local time. */ zone?: string }
  | { kind: 'reject'; reason: PlanRejectReason; detail: string };

export type ActionKindOf<K extends Action['kind']> = Extract<Action, { kind: K }>;

/** A template as the platform lists it (GET /wba/templates). */
export interface TemplateInfo {
  name: string;
  language: string;
  status: string;
  components: Array<{ type?: string; text?: string; [k: string]: unknown }>;
}
