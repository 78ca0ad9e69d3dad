/** The messaging-limit places of a file store. For now one process's own count (the budget work makes it shared). */
import type { BudgetHolder, Ledger } from '../ledger.js';

const DAY_MS = 86_400_000;

export function fileBudgetHolder(ledger: () => Promise<Ledger>): BudgetHolder {
  let held = 0;
  return {
    get held() {
      return held;
    },
    async take(want, limit, now) {
      const l = await ledger();
      await l.refresh();
      const granted = Math.max(0, Math.min(want, limit - l.uniqueOutsideWindowSince(now - DAY_MS) - held));
      held += granted;
      return granted;
    },
    release() {
      held = 0;
      return Promise.resolve();
    },
  };
}
