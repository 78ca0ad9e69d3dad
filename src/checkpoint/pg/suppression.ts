/** The suppression list in the database. Filled by the lists work. */
import type { SuppressionInput, SuppressionList, SuppressResult, UnsuppressOptions } from '../suppression.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function pgSuppression(_db: Db): {
  list(): Promise<SuppressionList>;
  suppress(entries: readonly SuppressionInput[]): Promise<SuppressResult>;
  unsuppress(phones: readonly string[], options?: UnsuppressOptions): Promise<string[]>;
} {
  return { list: notYet, suppress: notYet, unsuppress: notYet };
}
