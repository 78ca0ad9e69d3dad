/**
 * The backends the storage port's contract suite runs against. A new backend is one more entry:
 * `open` gives a store on a fresh, empty place, `another` a second store on the same place (as a
 * second process, on this host or another, would open it), `cleanup` removes the place.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFileStore, type StateStore } from '../../../src/checkpoint/index.js';

export interface OpenedBackend {
  store: StateStore;
  another(): Promise<StateStore>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: string;
  open(): Promise<OpenedBackend>;
}

export const backends: Backend[] = [
  {
    name: 'file',
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), 'outreach-contract-'));
      return {
        store: createFileStore(dir),
        another: () => Promise.resolve(createFileStore(dir)),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
];
