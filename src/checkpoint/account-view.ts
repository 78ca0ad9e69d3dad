/**
 * `StateStore.account(company)` for a backend: the backend's own view of the company, seen through the
 * object `account` was called on. A caller that wraps a store (a test that holds back acknowledgements,
 * a program that counts calls) keeps its wrapper when it asks for a company's part: a method the wrapper
 * replaced is the wrapper's, every other one the company's.
 */
import type { StateStore } from './store.js';

export function accountThrough<S extends StateStore>(self: StateStore, original: S, company: S): S {
  if (self === original) return company;
  return new Proxy(company, {
    get(target, key, receiver) {
      const mine: unknown = Reflect.get(self, key);
      if (typeof mine === 'function' && key !== 'account' && mine !== Reflect.get(original, key)) return mine.bind(self) as unknown;
      return Reflect.get(target, key, receiver);
    },
  });
}
