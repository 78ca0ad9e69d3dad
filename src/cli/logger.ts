import pino, { type Logger } from 'pino';
import { FILE_MODE, preparePrivateFileSync } from '../files/private.js';
import { stamped } from './stamp.js';

/** Explicit redact paths (a wildcard costs far more); never built from user input. */
export const REDACT_PATHS = ['token', 'authorization', 'headers.authorization', 'req.headers.authorization', 'options.token'];

/** The job's run.log: pino JSON lines, token redacted; a private file (0600). */
export function fileLogger(file: string): Logger {
  preparePrivateFileSync(file);
  return pino(
    { level: process.env.OUTREACH_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
    pino.destination({ dest: file, sync: false, mode: FILE_MODE }),
  );
}

/**
 * Logs of a long-lived command (webhook, sync): each record as a sentence on stderr (after an ISO
 * timestamp when stderr is not a terminal, as `run` prints), and, with `logFile`, as a pino JSON line
 * appended to that file. stdout stays for results.
 */
export function consoleLogger(options: { logFile?: string | undefined; err?: NodeJS.WritableStream & { isTTY?: boolean } } = {}): Logger {
  const level = process.env.OUTREACH_LOG_LEVEL ?? 'info';
  const err = options.err ?? process.stderr;
  const streams: pino.StreamEntry[] = [{ level: level as pino.Level, stream: { write: (line: string) => void err.write(sentenceOf(line, err.isTTY)) } }];
  if (options.logFile !== undefined) {
    preparePrivateFileSync(options.logFile);
    streams.push({ level: level as pino.Level, stream: pino.destination({ dest: options.logFile, sync: false, append: true, mode: FILE_MODE }) });
  }
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } }, pino.multistream(streams));
}

/** One pino JSON line as a line for people: "warning: …" or "error: …" before the message, an error's own message after it. */
export function sentenceOf(line: string, tty: boolean | undefined): string {
  let record: { level?: number; time?: number; msg?: string; err?: { message?: string } };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = record.level ?? 30;
  const prefix = level >= 50 ? 'error: ' : level >= 40 ? 'warning: ' : '';
  const cause = record.err?.message ? `: ${record.err.message}` : '';
  const time = typeof record.time === 'number' ? record.time : Date.now();
  return `${stamped(`${prefix}${record.msg ?? ''}${cause}`, tty, () => time)}\n`;
}

/** Flushes a file logger before the process ends. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
