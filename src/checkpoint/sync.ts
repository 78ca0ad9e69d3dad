/** The port's bookmark of `sync`: how far the last pass read the platform's conversations. */
export interface SyncBook {
  /** The next sync lists conversations with `updated_at >=` this (A12); null before the first. */
  updatedAt: string | null;
  /** Per conversation, the newest message id already recorded: the next `after_id`. */
  conversations: Map<string, number>;
  lastRun: string | null;
}
