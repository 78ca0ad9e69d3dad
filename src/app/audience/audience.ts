import { rowKey } from '../../checkpoint/index.js';
import { contactReject, flat, loadContactBatches, type Contact, type CsvReadAhead, type KnownPhones, type LoadCounts, type LoadItem, type LoadWarning, type PlaceholderColumns, type Reject } from '../../contacts/index.js';
import { closest } from '../../job/index.js';
import { columnUses, type Action } from '../../plan/index.js';
import { loaderOptions, type ContactList } from '../load/index.js';

/** One row of the contact list as the campaign sees it. */
export type AudienceItem =
  /** A usable contact; `action` is the planner's choice when the audience was planned. */
  | { kind: 'contact'; contact: Contact; action?: Exclude<Action, { kind: 'reject' }> }
  /** A row the loader or the planner refused: it goes to rejects.csv, never to the platform. */
  | { kind: 'reject'; reject: Reject; by: 'loader' | 'planner' }
  | LoadWarning;

export interface AudienceOptions {
  /**
   * The planner's choice for a contact; without it, or when it gives undefined (a contact the run will
   * not send again), contacts come unplanned (status and report read the list offline).
   */
  decide?: (contact: Contact) => Action | undefined;
  /** Rows (`file:line`) an earlier plan pass rejected: left out, contacts and rejects alike. */
  skipRows?: ReadonlySet<string>;
  /** JSON lists: a named column must be among the keys of this many first entries (the loader's `namedKeysWithin`). */
  namedKeysWithin?: number;
  /** The numbers of contacts the run settled: a phone cell written as one is read without the phone library (the loader's `known`). */
  known?: KnownPhones;
  /** The list's CSV rows read ahead in a worker (the loader's `readAhead`). */
  readAhead?: CsvReadAhead;
}

/**
 * The one contact pipeline, shared by plan, run, status, report and the demo: the job's files
 * streamed through the loader (E.164, dedupe, loader rejects), then through the planner.
 * `counts` fills in as the items are read.
 */
export function audience(list: ContactList, options: AudienceOptions = {}): { items: AsyncIterable<AudienceItem>; counts: LoadCounts } {
  const { batches, counts } = audienceBatches(list, options);
  return { items: flat(batches), counts };
}

/**
 * The same pipeline a batch at a time (the loader's): each item is read and planned as it is taken
 * from its batch, so a reader that takes them without waiting pays no await per row. Take each batch
 * whole before asking for the next.
 */
export function audienceBatches(list: ContactList, options: AudienceOptions = {}): { batches: AsyncIterable<Iterable<AudienceItem>>; counts: LoadCounts } {
  const { batches, counts } = loadContactBatches(list.files, {
    ...loaderOptions(list.job, list.namedColumns),
    ...(options.namedKeysWithin !== undefined && { namedKeysWithin: options.namedKeysWithin }),
    ...(options.known !== undefined && { known: options.known }),
    ...(options.readAhead !== undefined && { readAhead: options.readAhead }),
    // Planned (plan, run): a placeholder whose column a file's header lacks stops the read before its first row.
    ...(options.decide !== undefined && { placeholders: placeholderColumns(list) }),
  });
  return { batches: plannedBatches(batches, options, list.only), counts };
}

/** The job's placeholder columns for the loader, each named by the job file and the field that uses it. */
export function placeholderColumns(list: ContactList): PlaceholderColumns {
  const where = (path: string) => (list.jobFile !== undefined ? `${list.jobFile}: ${path}` : path);
  return { uses: columnUses(list.job).map((u) => ({ column: u.column, where: where(u.path) })), suggest: closest };
}

/** Rows already read (contacts/pick.ts) through the planner, each decided as it is taken, as `audience` plans them: one batch. */
export async function* plannedItems(items: Iterable<LoadItem>, options: AudienceOptions, only?: ReadonlySet<string>): AsyncGenerator<Iterable<AudienceItem>> {
  yield planned(items, options, only);
}

async function* plannedBatches(batches: AsyncIterable<Iterable<LoadItem>>, options: AudienceOptions, only?: ReadonlySet<string>): AsyncGenerator<Iterable<AudienceItem>> {
  for await (const batch of batches) yield planned(batch, options, only);
}

function* planned(items: Iterable<LoadItem>, options: AudienceOptions, only?: ReadonlySet<string>): Generator<AudienceItem> {
  const { decide, skipRows } = options;
  for (const item of items) {
    if (item.kind === 'warning') {
      yield item;
      continue;
    }
    // A follow-up: only the earlier job's contacts it takes (the earlier job's rejects were its own).
    if (only !== undefined && (item.kind === 'reject' || !only.has(item.contact.phone))) continue;
    const row = item.kind === 'contact' ? item.contact : item.reject;
    if (skipRows?.has(rowKey(row))) continue;
    if (item.kind === 'reject') {
      yield { kind: 'reject', reject: item.reject, by: 'loader' };
      continue;
    }
    const { contact } = item;
    const action = decide?.(contact);
    if (action?.kind === 'reject') yield { kind: 'reject', reject: contactReject(contact, action.reason, action.detail), by: 'planner' };
    // Unplanned (or not planned now: a contact the run will not send), the loader's item is the audience's.
    else yield action ? { kind: 'contact', contact, action } : item;
  }
}
