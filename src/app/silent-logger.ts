import { pino, type Logger } from 'pino';

/** The logger of a use-case called without one: says nothing. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
