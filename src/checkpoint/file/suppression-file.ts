/**
 * The suppression list's file, `<stateDir>/suppressions.jsonl`: one change a line, append-only,
 * shared by every job and process of the state folder (the CLI, the webhook receiver, `sync`, runs).
 *
 *   {"v":1,"op":"add","phone":"+5511987654321","reason":"replied STOP","source":"reply_keyword","at":"2026-03-01T12:00:00.000Z"}
 *   {"v":1,"op":"remove","phone":"+5511987654321","only_source":"reply_keyword","at":"2026-03-02T08:00:00.000Z"}
 *
 * A change is durable (fdatasync) before `suppress` / `unsuppress` resolve. Readers fold the lines
 * in file order (`SuppressionIndex`), so every process sees the same list. A change made for one
 * company carries its id (`"company":1`): that company's list folds its own changes and those of no
 * company (written before companies were kept, or for every company); the store seen whole folds all.
 */
import {
  readSuppressionChange,
  SuppressionIndex,
  suppressionListOf,
  type SuppressionChange,
  type SuppressionInput,
  type SuppressionList,
  type SuppressResult,
  type UnsuppressOptions,
} from '../suppression.js';
import { inCompany } from '../ledger.js';
import { jsonlFile, parseLine } from './jsonl-file.js';

export interface SuppressionFile {
  list(): Promise<SuppressionList>;
  suppress(entries: readonly SuppressionInput[]): Promise<SuppressResult>;
  unsuppress(phones: readonly string[], options?: UnsuppressOptions): Promise<string[]>;
}

export function suppressionFile(file: string, company?: number, now: () => Date = () => new Date()): SuppressionFile {
  const log = jsonlFile(file, 'the suppression list');
  const index = new SuppressionIndex();
  const refresh = () =>
    log.catchUp(
      (line) => {
        const value = parseLine(line);
        const change = value && readSuppressionChange(value);
        if (change && inCompany(change, company)) index.apply(change);
      },
      () => index.clear(),
    );
  const view: SuppressionList = suppressionListOf(index, refresh);
  const write = (changes: SuppressionChange[]) => log.append(changes.map((c) => ({ v: 1, ...c, ...(company !== undefined && { company }) })));

  return {
    async list() {
      await refresh();
      return view;
    },
    async suppress(entries) {
      const at = now().toISOString();
      const changes = entries.map((e) => ({ op: 'add' as const, phone: e.phone, reason: e.reason, source: e.source, at: e.at ?? at }));
      await refresh();
      const before = new Map(changes.map((c) => [c.phone, index.get(c.phone)]));
      await write(changes);
      await refresh();
      const result: SuppressResult = { added: [], already: [] };
      for (const c of changes) {
        const entry = index.get(c.phone);
        if (entry === undefined) continue;
        if (entry !== before.get(c.phone) && entry.at === c.at && entry.source === c.source) result.added.push(entry);
        else if (!result.already.includes(entry)) result.already.push(entry);
      }
      return result;
    },
    async unsuppress(phones, options = {}) {
      const at = options.at ?? now().toISOString();
      await refresh();
      const listed = phones.filter((p) => index.get(p) !== undefined);
      await write(phones.map((phone) => ({ op: 'remove', phone, ...(options.onlySource !== undefined && { only_source: options.onlySource }), at })));
      await refresh();
      return [...new Set(listed.filter((p) => index.get(p) === undefined))];
    },
  };
}
