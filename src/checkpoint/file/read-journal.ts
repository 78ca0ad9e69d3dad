import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ContactEvent, HeaderEvent } from '../types.js';
import { parseEvent } from '../json-line.js';

export { parseEvent } from '../json-line.js';

export interface JournalContents {
  /** The first header of the file, when there is one. */
  header?: HeaderEvent;
  /** Every readable event but headers, in file order. */
  events: ContactEvent[];
  /** Lines that are not a readable event (a write torn by a power cut), skipped. */
  tornLines: number;
  /** Their 1-based line numbers, for the caller's warning. */
  tornLineNumbers: number[];
}

/** The journal was written by a newer version of the program: refuse rather than misread it. */
export class JournalVersionError extends Error {
  readonly userError = true;
  constructor(file: string, version: unknown) {
    super(
      `${file} was written in checkpoint format ${String(version)}, which this version of outreach cannot read; upgrade outreach`,
    );
    this.name = 'JournalVersionError';
  }
}

/**
 * Reads a journal line by line. A missing file is an empty journal. Unreadable lines (a torn last
 * line after a power cut, or anywhere else) are skipped and counted: the caller warns. `lines` keeps
 * only the lines it accepts, before they are parsed (one contact's events of a long journal).
 */
export async function readJournal(file: string, options: { lines?: (line: string) => boolean } = {}): Promise<JournalContents> {
  const out: JournalContents = { events: [], tornLines: 0, tornLineNumbers: [] };
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' ? resolve(false) : reject(err),
    );
  });
  if (!(await opened)) return out;

  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    if (line.trim() === '' || (options.lines && !options.lines(line))) continue;
    const event = parseEvent(line);
    if (!event) {
      out.tornLines += 1;
      out.tornLineNumbers.push(lineNo);
    } else if (event.t === 'header') {
      if (event.v !== 1) throw new JournalVersionError(file, event.v);
      out.header = event; // the last header is the content in force (a --force-changed run adds one)
    } else {
      out.events.push(event);
    }
  }
  return out;
}
