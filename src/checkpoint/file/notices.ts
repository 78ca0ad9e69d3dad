/** What the file backend tells a person about how it read or kept a job's journal, as the port's notices. */
import type { StoreNotice } from '../store.js';
import type { CompactionResult } from './compact.js';

export function journalNotices(file: string, torn: readonly number[], compacted?: CompactionResult): StoreNotice[] {
  const notices: StoreNotice[] = [];
  if (torn.length > 0) {
    const lines = torn.length === 1 ? `line ${torn[0]} could not be read and was skipped` : `lines ${torn.join(', ')} could not be read and were skipped`;
    notices.push({ level: 'warn', message: `${file} ${lines} (a torn write)` });
  }
  if (compacted) {
    notices.push({ level: 'info', message: `the checkpoint ${file} was compacted from ${compacted.eventsBefore} events to ${compacted.eventsAfter} (the same state, fewer lines to read)` });
  }
  return notices;
}
