/**
 * A clock that moves only when something sleeps on it: a limiter given `clock` and `sleep` counts its
 * waits instead of spending them, so what a test asserts of its pace does not depend on the machine.
 */
export function virtualTime(start = 1_000_000): { now: () => number; sleep: (ms: number) => Promise<void> } {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      const until = now + ms;
      await Promise.resolve();
      now = Math.max(now, until);
    },
  };
}
