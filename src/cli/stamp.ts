/**
 * Lines for people: as they are on a terminal; elsewhere (a cron log, a pipe) each line that has
 * something on it after one ISO timestamp, so the log says when each run spoke and a line read alone
 * (grep, tail) still carries it.
 */
export function stamped(text: string, tty: boolean | undefined, clock: () => number = Date.now): string {
  if (tty === true) return text;
  const stamp = new Date(clock()).toISOString();
  return text.replace(/^(?=[^\n])/gm, `${stamp} `);
}
