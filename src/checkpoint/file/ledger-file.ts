/**
 * The ledger's file, `<stateDir>/ledger.jsonl`: one first message a line, append-only, shared by
 * every job and process of the state folder.
 *
 *   {"v":1,"phone":"+5511987654321","at":"2026-03-01T12:00:00.000Z","job":"black-friday","outside_window":true,"id":"3f9c…"}
 *   {"v":1,"op":"take_back","phone":"+5511987654321","at":"2026-03-01T12:00:00.000Z","job":"black-friday","id":"3f9c…"}
 *
 * `record` counts the entry at once (so a run sees its own sends before they are on disk) and
 * resolves once the line is durable (fdatasync; appends made meanwhile share one write). An entry
 * recorded `from` a messaging-limit holder that has a place carries the holder's id (`"holder"`):
 * that line is the place's use (budget-file.ts counts a hold's unused places from them). `takeBack`
 * appends a line naming an earlier entry (the provider did not accept its message): readers leave
 * that entry out, whichever of the two lines they read first.
 */
import { inCompany, LedgerIndex, ledgerRecord, ledgerViewOf, readLedgerLine, takeBackRecord, type Ledger } from '../ledger.js';
import { usePlace, type HoldsLedger, type HoldUse } from './budget-file.js';
import { jsonlFile, parseLine } from './jsonl-file.js';

/** The ledger, and what it read so far shows of each messaging-limit holder's places (budget-file.ts). */
export interface FileLedger extends Ledger, HoldsLedger {}

/**
 * The ledger of `company` (its entries and those of no company; undefined: the store seen whole, every
 * entry). An entry recorded here carries the company.
 */
export function ledgerFile(file: string, company?: number): () => Promise<FileLedger> {
  const log = jsonlFile(file, 'the ledger');
  const index = new LedgerIndex();
  const holds = new Map<string, HoldUse>();
  const refresh = () =>
    log.catchUp(
      (line) => {
        const value = parseLine(line);
        const read = value && readLedgerLine(value);
        if (read !== undefined && !inCompany(read.entry, company)) return;
        if (read?.op === 'add') {
          index.add(read.entry);
          if (typeof value?.holder === 'string') countUse(holds, value.holder, read.entry.at);
        } else if (read?.op === 'take_back') index.takeBack(read.entry);
      },
      () => {
        index.clear();
        holds.clear();
      },
    );
  const ledger: FileLedger = {
    record(given, from) {
      const entry = company === undefined ? given : { ...given, company };
      index.add(entry);
      const holder = usePlace(from, entry);
      return log.append([{ ...ledgerRecord(entry), ...(holder !== undefined && { holder }) }]);
    },
    holdUse: (id) => holds.get(id),
    takeBack(given) {
      const entry = company === undefined ? given : { ...given, company };
      index.takeBack(entry);
      return log.append([takeBackRecord(entry)]);
    },
    refresh,
    ...ledgerViewOf(index),
  };
  return async () => {
    await refresh();
    return ledger;
  };
}

function countUse(holds: Map<string, HoldUse>, id: string, at: number): void {
  const use = holds.get(id);
  if (use === undefined) holds.set(id, { used: 1, lastAt: at });
  else {
    use.used += 1;
    use.lastAt = Math.max(use.lastAt, at);
  }
}
