import { hostname } from 'node:os';
import { CliError } from './exit.js';
import { stamped } from './stamp.js';

/**
 * The process's stderr format and the lines written outside a logger, apart from the loggers
 * (logger.ts, which loads pino): every command reads its format at start, and only the commands that
 * log load pino.
 */

/** How lines are written on stderr: sentences for people (the default), or one JSON object a line for a log shipper. */
export type LogFormat = 'sentences' | 'json';

/** `--log-format`, on the commands that log as they go (run, resume, track, sync, webhook). */
export const LOG_FORMAT_OPTION = [
  '--log-format <format>',
  'how it writes on stderr: sentences, or json (one object a line: level, time, job, host, event and its fields, for a log shipper) (default $OUTREACH_LOG_FORMAT, else sentences)',
] as const;

let stderrFormat: LogFormat = 'sentences';

/** The format of `--log-format`, else OUTREACH_LOG_FORMAT, else sentences; another value is refused in one sentence (exit 2). */
export function logFormatOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): LogFormat {
  const [value, from] = flag !== undefined ? [flag, '--log-format'] : [env.OUTREACH_LOG_FORMAT ?? '', 'OUTREACH_LOG_FORMAT'];
  if (value === '' || value === 'sentences') return 'sentences';
  if (value === 'json') return 'json';
  throw new CliError(`${from} ${value}: give sentences (the default) or json`);
}

/** Sets the process's stderr format (the program does, before a command runs). */
export function setLogFormat(format: LogFormat): void {
  stderrFormat = format;
}

/** The process's stderr format. */
export function logFormat(): LogFormat {
  return stderrFormat;
}

/** A line on stderr outside a logger (an error, a signal): a sentence, or in the JSON format an object with `event`. */
export function stderrLine(level: 'info' | 'warn' | 'error', event: string, text: string, err: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): void {
  if (stderrFormat === 'json') {
    const record = { level, time: new Date().toISOString(), host: hostname(), pid: process.pid, event, msg: text };
    err.write(`${JSON.stringify(record)}\n`);
    return;
  }
  err.write(`${stamped(text, err.isTTY)}\n`);
}
