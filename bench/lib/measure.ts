/** Small measuring tools shared by the benches. */

/** Seconds since `start` (from `process.hrtime.bigint()`). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Samples this process's RSS every `everyMs` until `stop()`; both return the highest seen (MB). */
export function rssSampler(everyMs = 25): { peak(): number; stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, everyMs);
  return {
    peak() {
      peak = Math.max(peak, process.memoryUsage().rss);
      return mb(peak);
    },
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return mb(peak);
    },
  };
}

export function mb(bytes: number): number {
  return Math.round((bytes / 2 ** 20) * 10) / 10;
}

export function round(n: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** 12,345 */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** CPU seconds (user + system) this process has used. */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
