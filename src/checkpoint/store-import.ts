/**
 * Moving a state folder (the file store) into another store: `outreach store import`. The port's
 * own words for what each part found; a backend that can receive a folder implements
 * `StoreImporter`. Importing twice changes nothing: what is already there is counted, not copied.
 */
import type { RequestContent } from './types.js';

/** How an import names a filled message (the program's `messageKey`, given by the caller: the store does not know messages). */
export type MessageKeyOf = (content: RequestContent) => string;

/** What one store-wide part (the suppression list, the ledger, …) found: records copied, and records the store already had. */
export interface PartImport {
  imported: number;
  already: number;
  /** Something a person should know about this part (the store kept its own bookmark, records skipped). */
  note?: string;
}

/** What became of one job of the folder. */
export type JobImport =
  | {
      kind: 'imported';
      job: string;
      /** Journal records copied (the header among them). */
      records: number;
      /** The listing was copied too. */
      listing: boolean;
      /** Rows the plan had rejected, copied. */
      rejects: number;
      /** Unreadable journal lines (a write torn by a power cut), left out as every reader leaves them out. */
      torn: number;
    }
  | { kind: 'already'; job: string }
  | {
      kind: 'refused';
      job: string;
      /** Why, in a few words: "the store holds another journal for it (…)". */
      reason: string;
    };

/** The parts every store keeps beside its jobs. */
export const STORE_PARTS = ['suppressions', 'ledger', 'windows', 'events', 'syncBook'] as const;
export type StorePart = (typeof STORE_PARTS)[number];

/** A state folder on its way into a store. */
export interface StoreImporter {
  /** The folder, for people. */
  readonly from: string;
  /** The store it goes into, for people (a database URL with its password masked). */
  readonly into: string;
  /** The folder's jobs (its sub-folders that hold a journal), by name. */
  jobs(): Promise<string[]>;
  /** Copies one job (header and journal in order, listing, plan rejects) unless the store has it: the same content is "already", other content is refused. */
  job(name: string): Promise<JobImport>;
  /** Copies one store-wide part, leaving out what the store already has. */
  part(part: StorePart): Promise<PartImport>;
  close(): Promise<void>;
}
