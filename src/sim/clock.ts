/**
 * The simulated clock: it runs with wall time from `startTime` and jumps forward on `advance`.
 * The 24-hour window, createdAt/updatedAt and webhook timestamps read it; rate limiting reads wall time
 * (`wall`: Date.now unless the simulator was given another).
 */
export class SimClock {
  private readonly wallAtStart: number;
  private offset = 0;

  constructor(
    private readonly startTime: number = Date.now(),
    readonly wall: () => number = Date.now,
  ) {
    this.wallAtStart = wall();
  }

  now(): number {
    return this.startTime + (this.wall() - this.wallAtStart) + this.offset;
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceClock: ${ms} is not a non-negative number of ms`);
    this.offset += ms;
    return this.now();
  }
}

/** ISO 8601 in UTC with `Z` (record fields). */
export function isoZ(ms: number): string {
  return new Date(ms).toISOString();
}

/** ISO 8601 with an explicit `+00:00` offset (the webhook's `timestamp`). */
export function isoOffset(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}
