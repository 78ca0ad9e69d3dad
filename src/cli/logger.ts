import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';

/** Explicit redact paths (a wildcard costs far more); never built from user input. */
export const REDACT_PATHS = ['token', 'authorization', 'headers.authorization', 'req.headers.authorization', 'options.token'];

/** The job's run.log: pino JSON lines, token redacted. */
export function fileLogger(file: string): Logger {
  mkdirSync(path.dirname(file), { recursive: true });
  return pino(
    { level: process.env.OUTREACH_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
    pino.destination({ dest: file, sync: false, mkdir: true }),
  );
}

/** Logs for people running a long-lived command (sim, webhook): stderr, stdout stays for results. */
export function stderrLogger(): Logger {
  return pino(
    { level: process.env.OUTREACH_LOG_LEVEL ?? 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    pino.destination({ dest: 2, sync: true }),
  );
}

/** Flushes a file logger before the process ends. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
