/** The send ledger and the store-wide budget in the database. Filled by the lists work. */
import type { BudgetHolder, Ledger } from '../ledger.js';
import type { Db } from './db.js';

const notYet = (): never => {
  throw new Error('not written yet');
};
export function openPgLedger(_db: Db): Promise<Ledger> {
  return notYet();
}
export function pgBudgetHolder(_db: Db): Promise<BudgetHolder> {
  return notYet();
}
