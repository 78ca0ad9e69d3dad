/**
 * The ledger's file, `<stateDir>/ledger.jsonl`: one first message a line, append-only, shared by
 * every job and process of the state folder.
 *
 *   {"v":1,"phone":"+5511987654321","at":"2026-03-01T12:00:00.000Z","job":"black-friday","outside_window":true,"id":"3f9c…"}
 *   {"v":1,"op":"take_back","phone":"+5511987654321","at":"2026-03-01T12:00:00.000Z","job":"black-friday","id":"3f9c…"}
 *
 * `record` counts the entry at once (so a run sees its own sends before they are on disk) and
 * resolves once the line is durable (fdatasync; appends made meanwhile share one write). `takeBack`
 * appends a line naming an earlier entry (the provider did not accept its message): readers leave
 * that entry out, whichever of the two lines they read first.
 */
import { LedgerIndex, ledgerRecord, readLedgerLine, takeBackRecord, type Ledger } from '../ledger.js';
import { jsonlFile, parseLine } from './jsonl-file.js';

export function ledgerFile(file: string): () => Promise<Ledger> {
  const log = jsonlFile(file, 'the ledger');
  const index = new LedgerIndex();
  const refresh = () =>
    log.catchUp(
      (line) => {
        const value = parseLine(line);
        const read = value && readLedgerLine(value);
        if (read?.op === 'add') index.add(read.entry);
        else if (read?.op === 'take_back') index.takeBack(read.entry);
      },
      () => index.clear(),
    );
  const ledger: Ledger = {
    record(entry) {
      index.add(entry);
      return log.append([ledgerRecord(entry)]);
    },
    takeBack(entry) {
      index.takeBack(entry);
      return log.append([takeBackRecord(entry)]);
    },
    refresh,
    uniqueOutsideWindowSince: (since) => index.uniqueOutsideWindowSince(since),
    nthOutsideWindowSince: (since, n) => index.nthOutsideWindowSince(since, n),
    lastOutsideWindowAt: (phone) => index.lastOutsideWindowAt(phone),
    lastMessagedAt: (phone, options) => index.lastMessagedAt(phone, options),
    messagesSince: (phone, since, options) => index.messagesSince(phone, since, options),
  };
  return async () => {
    await refresh();
    return ledger;
  };
}
