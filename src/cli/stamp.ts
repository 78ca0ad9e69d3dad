/**
 * A line for people: as it is on a terminal; elsewhere (a cron log, a pipe) after an ISO timestamp,
 * so the log says when each run spoke.
 */
export function stamped(line: string, tty: boolean | undefined, clock: () => number = Date.now): string {
  return tty === true ? line : `${new Date(clock()).toISOString()} ${line}`;
}
