import type { CheckpointEvent } from '../../checkpoint/index.js';
import type { RunStats } from '../../run/index.js';

/**
 * What a run knows of itself while it sends, kept for the record it leaves when the store stops it
 * (`store-stopped.ts`): its counts so far, when it started sending, and the contacts in flight: those
 * whose request went out (its attempt recorded) and whose outcome is not recorded. A stop leaves
 * those in doubt; `outreach reconcile` settles them.
 */
export class RunSoFar {
  /** The executor's running counts, from its last result. */
  stats: RunStats | undefined;
  /** When (the run's clock, ms) the first contact was taken. */
  startedAt: number | undefined;
  /** Contacts settled by an earlier run that this run's read skipped. */
  alreadyDone: () => number = () => 0;
  private readonly flying = new Set<string>();

  /** Notes an event the store has kept. */
  recorded(event: CheckpointEvent): void {
    if (event.t === 'attempt') this.flying.add(event.phone);
    else if (event.t === 'sent' || event.t === 'failed' || event.t === 'in_doubt') this.flying.delete(event.phone);
  }

  /** The phones in flight, in the order their requests went out. */
  inFlight(): string[] {
    return [...this.flying];
  }
}
