/**
 * The ledger's file read for the rolling 24 hours only (status's messaging room): a line whose time
 * is at or before `since` is told by its text and not parsed, so a ledger of months costs a scan of
 * its bytes, not a parse of each line. The lines after `since` are folded as the whole ledger folds
 * them (ledger-file.ts), so the counts after `since` are the same; a line in the store's own shape is
 * read from the text (ledger-text.ts), any other parsed.
 */
import { open } from 'node:fs/promises';
import { inCompany, readLedgerLine, WindowIndex, type LedgerEntry, type RecentLedger } from '../ledger.js';
import { parseLine } from '../json-line.js';
import { readLedgerLines } from '../ledger-text.js';
import { scanCompleteText } from './scan-lines.js';
import { stateFileError } from './state-file-error.js';

const AT = '"at":"';
/** An ISO time as the ledger writes it (Date#toISOString): its text sorts as its time does. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Whether a line's time is surely at or before `since` (`since` as ISO text), from its text: one
 * top-level `"at"` (no nested object, no second `"at"`), written as toISOString writes it. Any other
 * line is not told apart here (it is parsed). `"at":"` is never inside a JSON string (a quote there
 * is escaped).
 */
export function lineAtOrBefore(line: string, since: string): boolean {
  const i = line.indexOf(AT);
  if (i === -1 || line.indexOf(AT, i + AT.length) !== -1 || line.indexOf('{', 1) !== -1) return false;
  const start = i + AT.length;
  if (line.charCodeAt(start + 24) !== 0x22) return false;
  const text = line.slice(start, start + 24);
  return ISO.test(text) && text <= since;
}

/**
 * The entries of the ledger `file` (of `company`, and of none; undefined: every entry) after `since`
 * (epoch ms), and the take-backs of those (a take-back carries its entry's time): what the counts of
 * the rolling window after `since` read. Complete lines only, as the whole ledger reads them.
 */
export async function recentLedgerFile(file: string, since: number, company?: number): Promise<RecentLedger> {
  const index = new WindowIndex();
  const sinceText = Number.isFinite(since) ? new Date(since).toISOString() : '';
  const told = ISO.test(sinceText);
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return recentOf(index, since);
    throw stateFileError(err, file);
  }
  try {
    const { size } = await handle.stat();
    const take = (read: { op: 'add' | 'take_back'; entry: LedgerEntry } | undefined) => {
      if (read === undefined || !inCompany(read.entry, company)) return;
      if (read.op === 'add') index.add(read.entry);
      else index.takeBack(read.entry);
    };
    await scanCompleteText(handle, 0, size, (text) => {
      readLedgerLines(
        text,
        (read) => {
          // Its one time, written as the ledger writes it: told by its text as lineAtOrBefore tells it.
          if (!told || read.at > sinceText) take(read);
        },
        (line) => {
          if (told && lineAtOrBefore(line, sinceText)) return;
          const value = parseLine(line);
          take(value && readLedgerLine(value));
        },
      );
    }, 1 << 20);
  } catch (err) {
    throw stateFileError(err, file);
  } finally {
    await handle.close();
  }
  return recentOf(index, since);
}

function recentOf(index: WindowIndex, since: number): RecentLedger {
  return {
    since,
    uniqueOutsideWindowSince: (at) => index.uniqueOutsideWindowSince(at),
    nthOutsideWindowSince: (at, n) => index.nthOutsideWindowSince(at, n),
  };
}
