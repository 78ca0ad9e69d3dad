import { ContactListing, rowKey, type ListedContact } from '../../checkpoint/index.js';
import { InputError, type Contact, type CsvReadAhead, type KnownPhones, type LoadCounts, type Reject } from '../../contacts/index.js';
import type { Action } from '../../plan/index.js';
import { audienceBatches, plannedItems, type AudienceItem } from '../audience/index.js';
import { listedOf } from '../list/index.js';
import { rejectRatioProblem } from '../plan/index.js';
import type { ContactList } from '../load/index.js';
import type { PickedList } from './resume-rows.js';

/** Rows read before the first send to check the reject ratio on (the whole list when it is shorter). */
export const READ_AHEAD_ROWS = 1_000;

/** What `pullNow` gives when the next item needs the next batch, which is awaited. */
const WAIT = Symbol('wait');

export interface SendPassOptions {
  /** The planner's choice for a contact, at the moment it is read; undefined for one the run will not send (settled before). */
  planner: (contact: Contact) => Action | undefined;
  /**
   * Whether a contact has nothing left for the send to do (settled before, no step owed): such contacts
   * are counted in `alreadyDone` and not handed to the send. By default none is.
   */
  settled?: (contact: Contact) => boolean;
  /** Told every 1,024 contacts counted as already done (a long settled stretch still shows progress). */
  onSettled?: (alreadyDone: number) => void;
  /** limits.max_reject_ratio. */
  maxRejectRatio: number;
  /** Named in the reject-ratio sentence. */
  rejectsFile: string;
  /** Default READ_AHEAD_ROWS. */
  readAhead?: number;
  /**
   * A run going on from a listing of the list as it is (resume-rows.ts): only these rows are read;
   * the others are as the listing and the earlier rejects say. The reject ratio is of the whole list.
   */
  picked?: PickedList;
  /** The numbers of the contacts `settled` says are settled: their phone cells, written as those numbers, are read without the phone library (the loader's `known`). */
  known?: KnownPhones;
  /** The list's CSV rows read ahead in a worker thread (a whole read): the pass takes them, and stops it once done. */
  csvWorker?: CsvReadAhead;
}

/**
 * `run`'s one read of the contact list: it feeds the send and counts what the plan pass used to
 * (rows, rejects by reason, the usable contacts for the report's pending rows), so the list is read
 * once per run, not twice. The reject-ratio guard cannot see the whole list before the first send any
 * more: `start` reads the first rows ahead and refuses a list whose first rows are rejected too often
 * (a wrong column or country shows there), and the send stops taking contacts as soon as the rows read
 * so far are rejected too often (a second file of another shape). `finish` reads what the send did not
 * reach (a stopped run), without sending, so that the pending count and the report are whole.
 */
export class SendPass {
  readonly rejects: Reject[] = [];
  readonly rejectedByReason: Record<string, number> = {};
  /** The usable contacts read (a picked read: the listing kept, less the rows rejected now, with the rows no longer rejected). */
  private readonly read = new ContactListing();
  /** Set when the reject ratio stopped the send in the middle of the list. */
  stoppedForRejects: string | undefined;
  /** Contacts read that had nothing left to do (`settled`), not handed to the send. */
  alreadyDone = 0;
  /**
   * A row past the read-ahead that the loader could not read at all (a quote never closed, broken
   * JSON): the send stops there, the contacts before it sent, and the run says so.
   */
  listError: InputError | undefined;
  /** The last row read (contact or reject): the files are read in order, so every row before it was read. */
  lastRow: { file: string; line: number } | undefined;
  /** The list's items a batch at a time (each item read and planned as it is taken), and the batch being taken. */
  private readonly batches: AsyncIterator<Iterable<AudienceItem>>;
  private batch: Iterator<AudienceItem> | undefined;
  private readonly counts: LoadCounts;
  private readonly buffer: AudienceItem[] = [];
  private ended = false;
  private readonly readAhead: number;

  /** A picked read: listed rows now rejected, and rows rejected before that are contacts now. */
  private readonly dropped = new Set<string>();
  private readonly added: ListedContact[] = [];

  constructor(
    private readonly list: ContactList,
    private readonly options: SendPassOptions,
  ) {
    this.readAhead = options.readAhead ?? READ_AHEAD_ROWS;
    const { picked } = options;
    if (picked) {
      this.batches = plannedItems(picked.items, { decide: options.planner }, list.only);
      // The rows not read are counted as read: the ratio is the whole list's, as the last whole read saw it.
      this.counts = { rows: picked.rows, contacts: picked.kept.size, rejected: picked.rejects.length, byReason: {}, warnings: 0, warningsByKind: {} };
      for (const reject of picked.rejects) this.noteReject(reject);
      this.alreadyDone = picked.settled;
      return;
    }
    // A misnamed key of a JSON list shows in the rows read ahead, before anything is sent.
    const { batches, counts } = audienceBatches(list, {
      decide: options.planner,
      namedKeysWithin: this.readAhead,
      ...(options.known && { known: options.known }),
      ...(options.csvWorker && { readAhead: options.csvWorker }),
    });
    this.batches = batches[Symbol.asyncIterator]();
    this.counts = counts;
  }

  /** The usable contacts read so far, in list order (a picked read: the whole list's). */
  get listing(): ContactListing {
    const kept = this.options.picked?.kept;
    if (!kept) return this.read;
    if (this.dropped.size === 0 && this.added.length === 0) return kept;
    const order = (c: ListedContact) => [this.list.files.indexOf(c.file ?? ''), c.line] as const;
    const before = (a: ListedContact, b: ListedContact) => {
      const [fa, la] = order(a);
      const [fb, lb] = order(b);
      return fa < fb || (fa === fb && la < lb);
    };
    const added = [...this.added].sort((a, b) => (before(a, b) ? -1 : 1));
    const out = new ContactListing(kept.size + added.length);
    let next = 0;
    for (const contact of kept) {
      while (next < added.length && before(added[next]!, contact)) out.add(added[next++]!);
      if (!this.dropped.has(rowKey({ file: contact.file ?? '', line: contact.line }))) out.add(contact);
    }
    while (next < added.length) out.add(added[next++]!);
    return out;
  }

  /** Data rows read so far (contacts and rejects). */
  get rows(): number {
    return this.counts.rows;
  }

  /** Whether the whole list has been read. */
  get complete(): boolean {
    return this.ended && this.buffer.length === 0 && this.listError === undefined;
  }

  /** Reads the first rows ahead; the sentence refusing the list when too many of them are rejected, else undefined. */
  async start(): Promise<string | undefined> {
    while (!this.ended && this.counts.rows < this.readAhead) {
      const item = await this.pull();
      if (item) this.buffer.push(item);
    }
    for (const item of this.buffer) this.tally(item);
    return this.problem();
  }

  /** The contacts to send, in list order. Ending it early (the executor's `return`) leaves the rest for `finish`. */
  contacts(): AsyncIterable<Contact> {
    const next = async (): Promise<IteratorResult<Contact>> => {
      for (;;) {
        if (this.stoppedForRejects !== undefined || this.listError !== undefined) return { done: true, value: undefined };
        const buffered = this.buffer.shift();
        let item: AudienceItem | undefined;
        try {
          if (buffered !== undefined) item = buffered;
          else {
            // Rows at hand are taken without an await: a million settled rows before the first to send.
            const now = this.pullNow();
            item = now === WAIT ? await this.pullBatch() : now;
          }
        } catch (err) {
          if (!(err instanceof InputError)) throw err;
          this.listError = err;
          this.ended = true;
          return { done: true, value: undefined };
        }
        if (item === undefined) return { done: true, value: undefined };
        if (buffered === undefined && this.tally(item) === 'reject' && this.counts.rows >= this.readAhead) {
          this.stoppedForRejects = this.problem();
        }
        if (item.kind !== 'contact') continue;
        if (this.options.settled?.(item.contact)) {
          this.alreadyDone += 1;
          if ((this.alreadyDone & 1023) === 0) this.options.onSettled?.(this.alreadyDone);
          continue;
        }
        return { done: false, value: item.contact };
      }
    };
    return { [Symbol.asyncIterator]: () => ({ next, return: async () => ({ done: true, value: undefined }) }) };
  }

  /** Reads (and counts, without sending) the rows the send did not reach; stops early when `cut` aborts. */
  async finish(cut?: AbortSignal): Promise<void> {
    this.buffer.length = 0; // counted by start() already
    try {
      // A picked read holds its few rows in memory: they are all counted, cut or not.
      while (!this.ended && this.listError === undefined && (this.options.picked !== undefined || !cut?.aborted)) {
        const now = this.pullNow();
        const item = now === WAIT ? await this.pullBatch() : now;
        if (item) this.tally(item);
      }
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.listError = err;
      this.ended = true;
    }
    if (this.ended) await this.stopReading();
  }

  /** Stops reading the list (a run that failed); safe to call twice. */
  async close(): Promise<void> {
    this.ended = true;
    await this.stopReading();
  }

  private async stopReading(): Promise<void> {
    this.batch?.return?.();
    this.batch = undefined;
    await this.batches.return?.();
    await this.options.csvWorker?.close();
  }

  private async pull(): Promise<AudienceItem | undefined> {
    const now = this.pullNow();
    return now === WAIT ? this.pullBatch() : now;
  }

  /** The next item of the batch at hand; WAIT when it is taken and the next must be awaited; undefined at the end. */
  private pullNow(): AudienceItem | undefined | typeof WAIT {
    if (this.ended) return undefined;
    if (this.batch) {
      const next = this.batch.next();
      if (!next.done) return next.value;
      this.batch = undefined;
    }
    return WAIT;
  }

  /** Awaits the next batch (an empty one passed over) and takes its first item; undefined at the end. */
  private async pullBatch(): Promise<AudienceItem | undefined> {
    for (;;) {
      const next = await this.batches.next();
      if (next.done) {
        this.ended = true;
        return undefined;
      }
      this.batch = next.value[Symbol.iterator]();
      const now = this.pullNow();
      if (now !== WAIT) return now;
    }
  }

  /** Counts one item of the list. */
  private tally(item: AudienceItem): AudienceItem['kind'] {
    if (item.kind !== 'warning') {
      const row = item.kind === 'reject' ? item.reject : item.contact;
      this.lastRow = { file: row.file, line: row.line };
    }
    const { picked } = this.options;
    if (item.kind === 'reject') {
      this.noteReject(item.reject);
      if (picked) this.dropped.add(rowKey(item.reject));
    } else if (item.kind === 'contact') {
      if (!picked) this.read.add(listedOf(item.contact, this.list.job));
      else if (!picked.listedRows.has(rowKey(item.contact))) this.added.push(listedOf(item.contact, this.list.job));
    }
    return item.kind;
  }

  private noteReject(reject: Reject): void {
    this.rejects.push(reject);
    this.rejectedByReason[reject.reason] = (this.rejectedByReason[reject.reason] ?? 0) + 1;
  }

  private problem(): string | undefined {
    return rejectRatioProblem(this.options.maxRejectRatio, { rows: this.counts.rows, rejects: this.rejects, rejectedByReason: this.rejectedByReason }, this.options.rejectsFile);
  }
}

