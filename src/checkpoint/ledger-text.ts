/**
 * A ledger line read without JSON.parse when it is character for character one of the shapes the
 * store writes (ledger.ts's ledgerRecord and takeBackRecord through JSON.stringify, a holder's id
 * last: ledger-file.ts):
 *
 *   {"v":1,"phone":S,"at":"T","job":S,"outside_window":B[,"id":S][,"channel_id":N][,"message":S][,"state":S][,"company":N][,"holder":S]}
 *   {"v":1,"op":"take_back","phone":S,"at":"T","job":S[,"id":S][,"company":N]}
 *
 * S a JSON string with no backslash and no control character (its text is its value), T a time as
 * toISOString writes it, B true or false, N a plain integer (no sign, no leading zero, at most 15
 * digits). One regular expression finds and reads them (native code, where a status's ten thousand
 * lines are too few for a loop of our own to be compiled). Anything else (a space, an escape, another key
 * or order) is left to the caller's general path, JSON.parse and readLedgerLine, which give the same
 * entry for every line read here (a test reads lines both ways).
 */
import type { LedgerEntry } from './ledger.js';

/** A line read: an entry or a take-back, its time's text, and the holder whose place the entry used (ledger-file.ts), if it names one. */
export interface LedgerText {
  op: 'add' | 'take_back';
  entry: LedgerEntry;
  /** The time as the line writes it (ISO, as toISOString writes it). */
  at: string;
  holder?: string;
}

const S = '"([^"\\\\\\u0000-\\u001f]*)"';
const N = '(0|[1-9]\\d{0,14})';
const LINE = new RegExp(
  `^\\{"v":1,(?:"op":"(take_back)",)?"phone":${S},"at":"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z)","job":${S}(?:,"outside_window":(true|false))?(?:,"id":${S})?(?:,"channel_id":${N})?(?:,"message":${S})?(?:,"state":${S})?(?:,"company":${N})?(?:,"holder":${S})?\\}\\n`,
  'gm',
);

/**
 * Each line of `text` (whole lines, each ending with its newline), in order: `shaped` is given a line
 * of the writer's shape that readLedgerLine takes, read; `other` any other line's text (parse it).
 * One search through the text finds the shaped lines; the ones between them are the others.
 */
export function readLedgerLines(text: string, shaped: (read: LedgerText) => void, other: (line: string) => void): void {
  let next = 0;
  const others = (end: number) => {
    for (let nl = text.indexOf('\n', next); nl !== -1 && nl < end; nl = text.indexOf('\n', next)) {
      other(text.slice(next, nl));
      next = nl + 1;
    }
  };
  LINE.lastIndex = 0;
  for (let m = LINE.exec(text); m !== null; m = LINE.exec(text)) {
    if (m.index > next) others(m.index);
    next = LINE.lastIndex;
    const read = shapedLine(m);
    if (read === undefined) other(text.slice(m.index, next - 1));
    else shaped(read);
  }
  others(text.length);
}

/** A match of LINE read as readLedgerLine reads its line, or undefined when it would not take it. */
function shapedLine(m: RegExpExecArray): LedgerText | undefined {
  // By index, not destructured (no iterator for each line).
  const takeBack = m[1];
  const phone = m[2];
  const atText = m[3];
  const job = m[4];
  const outside = m[5];
  const id = m[6];
  const channel = m[7];
  const message = m[8];
  const state = m[9];
  const company = m[10];
  const holder = m[11];
  if (phone === undefined || atText === undefined || job === undefined) return undefined;
  // A take-back carries none of an entry's own fields; an entry says whether it went outside the window.
  if (takeBack !== undefined ? outside !== undefined || channel !== undefined || message !== undefined || state !== undefined || holder !== undefined : outside === undefined) return undefined;
  const at = Date.parse(atText);
  if (Number.isNaN(at)) return undefined;
  const entry: LedgerEntry = { phone, at, job, outsideWindow: outside === 'true' };
  if (id !== undefined) entry.id = id;
  if (channel !== undefined) entry.channelId = Number(channel);
  if (message !== undefined) entry.message = message;
  if (state !== undefined) entry.state = state;
  if (company !== undefined) entry.company = Number(company);
  const read: LedgerText = { op: takeBack === undefined ? 'add' : 'take_back', entry, at: atText };
  if (holder !== undefined) read.holder = holder;
  return read;
}
