import type { ContactState } from '../checkpoint/index.js';
import type { Reject } from '../contacts/index.js';
import type { ProviderClass } from './provider-classes.js';

/** What became of one contact in this run. */
export type ContactResult =
  | { kind: 'sent'; warnings: string[] }
  /** `providerClass` when the provider's refusal decided it (run/provider-classes.ts). */
  | { kind: 'failed'; error: string; retryable: boolean; providerClass?: ProviderClass }
  | { kind: 'in_doubt'; error: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'deferred'; reason: string; notBefore: number; providerClass?: ProviderClass }
  | { kind: 'rejected'; reject: Reject }
  /** Already settled by an earlier run (or left for `resume`): nothing sent now. */
  | { kind: 'untouched'; state: ContactState; warnings: string[] }
  /** The run stopped before anything was sent for it: still pending. */
  | { kind: 'interrupted' };

/** Which earlier outcomes this command takes up again. */
export interface RetryMode {
  /** `resume`: retry failed contacts whose failure is retryable. */
  retryFailed: boolean;
  /** `resume --retry-in-doubt`: also resend contacts in doubt (the user checked them). */
  retryInDoubt: boolean;
}
