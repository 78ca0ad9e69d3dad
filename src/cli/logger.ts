import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import { FILE_MODE, preparePrivateFileSync } from '../files/private.js';
import { logFormat } from './log-format.js';
import { stamped } from './stamp.js';

/** Explicit redact paths (a wildcard costs far more); never built from user input. */
export const REDACT_PATHS = ['token', 'authorization', 'headers.authorization', 'req.headers.authorization', 'options.token'];

export { LOG_FORMAT_OPTION, logFormat, logFormatOf, setLogFormat, stderrLine, type LogFormat } from './log-format.js';

/** The fields every record carries: the process, the machine, and the job when there is one. */
function baseFields(job: string | undefined): Record<string, unknown> {
  return { pid: process.pid, host: hostname(), ...(job !== undefined && { job }) };
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * One pino line as the object a log shipper reads: `level` by name, `time` in ISO, then `job`,
 * `host`, `event` (what happened, `log` when the record names nothing), the record's own fields, and
 * `msg`, the sentence.
 */
export function shippedLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const { level, time, job, host, pid, event, msg, ...fields } = record;
  const at = typeof time === 'number' ? time : Date.now();
  const shipped = {
    level: typeof level === 'number' ? (LEVELS[level] ?? String(level)) : level,
    time: new Date(at).toISOString(),
    ...(job !== undefined && { job }),
    host,
    pid,
    event: event ?? 'log',
    ...fields,
    ...(msg !== undefined && { msg }),
  };
  return `${JSON.stringify(shipped)}\n`;
}

/**
 * The job's run.log: pino JSON lines (with the host and the job), token redacted; a private file (0600). In the JSON format
 * the same records go to stderr as well, shipped (`shippedLine`).
 */
export function fileLogger(file: string, options: { job?: string; err?: NodeJS.WritableStream } = {}): Logger {
  // A private file (0600) in a private folder, whatever the umask.
  preparePrivateFileSync(file);
  const dest = pino.destination({ dest: file, sync: false, mode: FILE_MODE });
  const err = options.err ?? process.stderr;
  // A stream of our own keeps pino's flush (the file's) while the lines go to stderr too.
  const stream: DestinationStream & { flush?: (cb: (e?: Error) => void) => void } =
    logFormat() === 'json'
      ? {
          write(line: string) {
            dest.write(line);
            err.write(shippedLine(line));
          },
          flush: (cb) => dest.flush(cb),
        }
      : dest;
  return pino({ level: process.env.OUTREACH_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: baseFields(options.job) }, stream);
}

/**
 * Logs of a long-lived command (webhook, sync): each record as a sentence on stderr (after an ISO
 * timestamp when stderr is not a terminal, as `run` prints), or in the JSON format as one shipped
 * object; and, with `logFile`, as a pino JSON line appended to that file. stdout stays for results.
 */
export function consoleLogger(options: { logFile?: string | undefined; err?: NodeJS.WritableStream & { isTTY?: boolean } } = {}): Logger {
  const level = process.env.OUTREACH_LOG_LEVEL ?? 'info';
  const err = options.err ?? process.stderr;
  const toStderr = logFormat() === 'json' ? (line: string) => shippedLine(line) : (line: string) => sentenceOf(line, err.isTTY);
  const streams: pino.StreamEntry[] = [{ level: level as pino.Level, stream: { write: (line: string) => void err.write(toStderr(line)) } }];
  if (options.logFile !== undefined) {
    preparePrivateFileSync(options.logFile);
    streams.push({ level: level as pino.Level, stream: pino.destination({ dest: options.logFile, sync: false, append: true, mode: FILE_MODE }) });
  }
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: baseFields(undefined) }, pino.multistream(streams));
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
