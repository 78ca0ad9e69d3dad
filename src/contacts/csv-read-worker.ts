/**
 * The CSV read-ahead worker (started by csv-read-ahead.ts): reads the list's CSV and TSV files in the
 * loader's order with the loader's own header read and csvBatches' read (csvReads), and sends their
 * rows packed (csv-wire.ts): plain lines as the text they were read from and their cells' offsets.
 * It stays at most AHEAD_BATCHES batches ahead of what the loader took.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { csvReads, readHeader } from './csv.js';
import { type FromWorker, type ReadAheadData, movedBuffers, packRows, packScan, STOP, TAKEN } from './csv-wire.js';
import { InputError } from './errors.js';
import { openSource } from './source.js';

/** Batches (of about 256 KB of the file each) sent and not yet taken, at most: some 64 MB of a list read ahead. */
export const AHEAD_BATCHES = 256;

const port = parentPort;
if (port === null) throw new Error('csv-read-worker.ts runs as a worker thread only');
const data = workerData as ReadAheadData;
const window = new Int32Array(data.window);

const post = (message: FromWorker, moved: ArrayBuffer[] = []): void => port.postMessage(message, moved);

/** Waits while the loader is AHEAD_BATCHES behind; false once the loader said stop. */
function room(sent: number): boolean {
  for (;;) {
    if (Atomics.load(window, STOP) !== 0) return false;
    const taken = Atomics.load(window, TAKEN);
    if (sent - taken < AHEAD_BATCHES) return true;
    Atomics.wait(window, TAKEN, taken, 1000);
  }
}

async function readAll(): Promise<void> {
  let sent = 0;
  for (const file of data.files) {
    let layout;
    let source;
    try {
      source = await openSource(file, data.format);
      if (source.format !== 'csv' && source.format !== 'tsv') {
        post({ kind: 'skip', file });
        continue;
      }
      layout = readHeader(source, data.delimiter);
    } catch {
      // The loader opens the file itself and says what is wrong with it.
      post({ kind: 'skip', file });
      continue;
    }
    post({ kind: 'file', file, layout });
    try {
      for await (const read of csvReads(source, layout)) {
        if (!room(sent)) return;
        const packed = read.kind === 'plain' ? packScan(read.scan) : packRows(read.batch);
        post({ kind: 'rows', ...packed }, movedBuffers(packed));
        sent += 1;
      }
    } catch (err) {
      if (err instanceof InputError) post({ kind: 'error', file: err.file, message: err.message, ...(err.line !== undefined && { line: err.line }) });
      else post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
      return;
    }
    post({ kind: 'end', file });
  }
}

readAll().catch((err: unknown) => post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }));
