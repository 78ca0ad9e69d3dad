/**
 * A list's CSV and TSV files read ahead in a worker thread. A run going on from a journal with no
 * listing reads its whole list before its first send, and folds its whole journal before that: the
 * worker reads and parses the list (csv-read-worker.ts) while the run's thread folds, and the loader
 * then takes each file's rows from it instead of parsing them itself. The rows are the ones csvBatches
 * gives, line for line, since the worker runs it on the same file with the same header read. Whatever
 * the worker cannot give (a file it read with another header, a worker that stopped), the loader
 * reads itself, from the row after the last one it took.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type CsvBatch, type CsvLayout, csvBatches } from './csv.js';
import { type FromWorker, type ReadAheadData, STOP, TAKEN, unpackRows } from './csv-wire.js';
import type { Delimiter, Format } from './detect.js';
import { InputError } from './errors.js';
import { type Source, uniquePaths } from './source.js';

/** The worker's module, beside this one once built (under a TypeScript loader there is none: the loader reads by itself). */
const WORKER = new URL('./csv-read-worker.js', import.meta.url);

export interface ReadAheadOptions {
  /** The job's format and delimiter, as the loader's settings have them. */
  format?: Format | undefined;
  delimiter?: Delimiter | undefined;
  /** The worker's module; by default the one beside this module. */
  worker?: URL;
}

/**
 * Starts reading the list's `files` (given as to the loader) in a worker; undefined when there is no
 * worker to start (the loader reads by itself). Close it once the loader is done with it.
 */
export function readAheadCsv(files: readonly string[], options: ReadAheadOptions = {}): CsvReadAhead | undefined {
  const url = options.worker ?? WORKER;
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return undefined;
  return new CsvReadAhead(url, { files: uniquePaths(files), format: options.format, delimiter: options.delimiter, window: new SharedArrayBuffer(8) });
}

export class CsvReadAhead {
  private readonly worker: Worker;
  private readonly window: Int32Array;
  private readonly queue: Array<FromWorker | undefined> = [];
  private head = 0;
  private wake: (() => void) | undefined;
  /** Set once the worker gives nothing more (it ended, failed, or was stopped). */
  private gone = false;
  private closed = false;

  constructor(url: URL, data: ReadAheadData) {
    this.window = new Int32Array(data.window);
    this.worker = new Worker(url, { workerData: data });
    // Only a loader waiting on it keeps the process alive (next()).
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      this.queue.push(message);
      this.wake?.();
    });
    const end = () => {
      this.gone = true;
      this.wake?.();
    };
    this.worker.on('error', end);
    this.worker.on('exit', end);
  }

  /**
   * The rows of the file `source` (whose header the loader read as `layout`), as csvBatches gives
   * them: the worker's when it read this file with the same header, else (or from where the worker
   * stopped) the loader's own read. A problem of the file is thrown as the loader's InputError.
   */
  async *batches(source: Source, layout: CsvLayout): AsyncGenerator<CsvBatch> {
    let after = 0;
    let done = false;
    try {
      if (await this.reads(source.file, layout)) {
        for (;;) {
          const message = await this.next();
          if (message?.kind === 'rows') {
            Atomics.add(this.window, TAKEN, 1);
            Atomics.notify(this.window, TAKEN);
            const batch = unpackRows(message);
            after = batch.lines[batch.lines.length - 1] ?? after;
            yield batch;
            continue;
          }
          if (message?.kind === 'end' && message.file === source.file) {
            done = true;
            return;
          }
          if (message?.kind === 'error') {
            done = true;
            throw new InputError(message.message, message.file, message.line);
          }
          break; // the worker stopped, or said something out of turn: the loader reads on by itself
        }
        await this.close();
      }
      for await (const batch of csvBatches(source, layout)) {
        if (after === 0) yield batch;
        else {
          const from = batch.lines.findIndex((line) => line > after);
          if (from >= 0) yield { rows: batch.rows.slice(from), lines: batch.lines.slice(from) };
        }
      }
      done = true;
    } finally {
      // A loader that stopped in the middle of the file reads no more of the list.
      if (!done) await this.close();
    }
  }

  /** Stops the worker; the loader reads whatever it still asks for by itself. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.gone = true;
    Atomics.store(this.window, STOP, 1);
    Atomics.notify(this.window, TAKEN);
    this.queue.length = 0;
    this.head = 0;
    await this.worker.terminate();
  }

  /** Whether the worker reads `file` with the header the loader read (its messages of the files before it passed over). */
  private async reads(file: string, layout: CsvLayout): Promise<boolean> {
    for (;;) {
      const message = await this.next();
      if (message?.kind === 'skip' && message.file !== file) continue;
      if (message?.kind === 'file' && message.file === file && sameLayout(message.layout, layout)) return true;
      await this.close();
      return false;
    }
  }

  /** The worker's next message; undefined once it gives no more. */
  private async next(): Promise<FromWorker | undefined> {
    for (;;) {
      if (this.head < this.queue.length) {
        const message = this.queue[this.head];
        this.queue[this.head++] = undefined;
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
          this.queue.splice(0, this.head);
          this.head = 0;
        }
        return message;
      }
      if (this.gone) return undefined;
      this.worker.ref();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
      this.worker.unref();
    }
  }
}

function sameLayout(a: CsvLayout, b: CsvLayout): boolean {
  return a.delimiter === b.delimiter && a.headerLine === b.headerLine && a.headers.length === b.headers.length && a.headers.every((h, i) => h === b.headers[i]);
}
