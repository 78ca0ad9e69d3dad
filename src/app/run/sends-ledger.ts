/**
 * A run's first messages into the ledger, written ahead like the checkpoint: the request's `attempt`
 * and its ledger entry are both durable before it leaves, so a crash can over-count the messaging
 * limit, never under-count it. The room a decision reserved is handed over to the ledger entry in
 * the same tick, so no recipient is counted twice or not at all meanwhile. The entry stays while the
 * contact is being sent (a refused request that is retried, after a back-off or on its conversation,
 * keeps its room and keeps other jobs off the phone meanwhile); when the contact settles for this run
 * and its last request was refused (`failed`: the provider or the platform did not accept it), the
 * entry is taken back: the limit counts the first messages the provider accepted, and the frequency
 * cap does not hold back a person who got nothing. A request in doubt stays counted: it may have gone.
 */
import { randomUUID } from 'node:crypto';
import type { CheckpointEvent, LedgerEntry } from '../../checkpoint/index.js';
import type { Contact } from '../../contacts/index.js';
import { messageKey } from '../../job/index.js';
import type { Action, PlanContext } from '../../plan/index.js';
import { noteDecision, outsideWindow, type ComplianceLookups } from '../protection/index.js';

export interface SendsLedger {
  onDecided(contact: Contact, action: Action, context: PlanContext): void;
  /** Records the event through `write`; a first message's attempt also goes to the ledger, and its failure takes it back. */
  record(event: CheckpointEvent, write: (event: CheckpointEvent) => Promise<void>): Promise<void>;
  /** The contact is done for this run: whatever it still holds is given back, and its entry taken back when its last request was refused. */
  settled(contact: Contact): void;
  /** Resolves once every take-back of the run is written (one that could not be leaves the recipient counted: the safe side). */
  flush(): Promise<void>;
}

export function sendsLedger(c: ComplianceLookups): SendsLedger {
  const decided = new Map<string, { outside: boolean; kind: 'template' | 'text' }>();
  /** Per phone, the ledger entry of this run's requests to it, until the contact settles. */
  const open = new Map<string, LedgerEntry>();
  /** Phones whose latest request was refused (a `failed` answer): their entry is taken back when they settle so. */
  const refused = new Set<string>();
  const takingBack: Array<Promise<void>> = [];
  return {
    onDecided(contact, action, context) {
      noteDecision(c, contact, action, context);
      if (action.kind === 'template' || action.kind === 'text') decided.set(contact.phone, { outside: outsideWindow(c.job, contact, context), kind: action.kind });
    },
    async record(event, write) {
      if (event.t === 'failed' && open.has(event.phone)) refused.add(event.phone);
      if (event.t === 'sent' || event.t === 'in_doubt') refused.delete(event.phone);
      if (event.t !== 'attempt') return write(event);
      refused.delete(event.phone);
      const d = decided.get(event.phone);
      // A text refused and sent again as the template went outside the window after all.
      const outside = (d?.outside ?? true) || (d?.kind === 'text' && event.action === 'template');
      const earlier = open.get(event.phone);
      // Moved off a drained number: that number's entry is taken back (its request was refused), the new number's recorded.
      const moved = earlier !== undefined && earlier.channelId !== event.channel_id;
      if (moved) takingBack.push(c.ledger.takeBack(earlier).catch(() => undefined));
      const before = moved ? undefined : earlier?.outsideWindow;
      if (before === true || before === outside) return write(event);
      const entry: LedgerEntry = {
        phone: event.phone,
        at: Date.parse(event.at),
        job: c.job.name,
        outsideWindow: outside || earlier?.outsideWindow === true,
        id: randomUUID(),
        ...(event.channel_id !== undefined && { channelId: event.channel_id }),
        // What it carried: the same message from another job of the company is not sent again (already_sent).
        ...(event.content !== undefined && { message: messageKey(event.content) }),
        // Which state of the job sent it: a first message of this job's name from another state is another job's for already_sent.
        ...(c.own?.state !== undefined && { state: c.own.state }),
      };
      open.set(event.phone, entry);
      // A recipient decided on a place of the store's budget: its entry uses that place, in the same write.
      // A write the store could not make goes up as the store's error: the run stops there (run-job.ts, store-stopped.ts).
      const ledgered = c.ledger.record(entry, c.holder !== undefined && c.reservations.has(event.phone) ? c.holder : undefined);
      c.reservations.release(event.phone);
      await Promise.all([write(event), ledgered]);
    },
    settled(contact) {
      c.reservations.release(contact.phone);
      decided.delete(contact.phone);
      const entry = open.get(contact.phone);
      open.delete(contact.phone);
      if (entry === undefined || !refused.delete(contact.phone)) return;
      // Written after the contact's `failed` (awaited before the executor settles it): a crash between them over-counts, never under-counts.
      takingBack.push(c.ledger.takeBack(entry).catch(() => undefined));
    },
    async flush() {
      await Promise.all(takingBack.splice(0));
    },
  };
}
