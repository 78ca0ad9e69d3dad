/** Reading an object stream a batch at a time. */
import type { Readable } from 'node:stream';

/**
 * Like the stream's own async iterator, but hands over everything buffered at once: one
 * await per chunk of the file instead of one per record, which matters at a million rows.
 * Records pushed before an error are all handed over before the error is thrown.
 * Stopping early (break, return, throw in the consumer) destroys the stream.
 */
export async function* batches<T>(stream: Readable): AsyncGenerator<T[]> {
  let ended = false;
  let closed = false;
  let failure: { error: unknown } | undefined = stream.errored ? { error: stream.errored } : undefined;
  let wake: (() => void) | undefined;
  const onReadable = (): void => wake?.();
  const onEnd = (): void => {
    ended = true;
    wake?.();
  };
  const onClose = (): void => {
    closed = true;
    wake?.();
  };
  const onError = (error: unknown): void => {
    failure ??= { error };
    wake?.();
  };
  stream.on('readable', onReadable);
  stream.on('end', onEnd);
  stream.on('close', onClose);
  stream.on('error', onError);
  try {
    for (;;) {
      const batch: T[] = [];
      let record: T | null;
      while ((record = stream.read() as T | null) !== null) batch.push(record);
      if (batch.length > 0) {
        yield batch;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (ended) return;
      if (closed) throw new Error('the stream closed before its end');
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    stream.off('readable', onReadable);
    stream.off('end', onEnd);
    stream.off('close', onClose);
    stream.off('error', onError);
    if (!ended) stream.destroy();
  }
}
