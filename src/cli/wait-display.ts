import type { WaitInfo } from '../app/index.js';
import { formatDeferred } from './format/deferred.js';
import { formatTime, type Readers } from './format/time.js';

/** Without a terminal, a waiting line this often. */
const LINE_EVERY_MS = 5 * 60_000;

export interface WaitDisplay {
  /** A wait begins: say what for, and keep saying it (a countdown on a terminal, a line every few minutes elsewhere). */
  start(info: WaitInfo): void;
  stop(): void;
}

/** What `run --wait` shows while it waits, on stderr. */
export function waitDisplay(out: NodeJS.WriteStream, zone: Readers, clock: () => number = Date.now): WaitDisplay {
  let timer: NodeJS.Timeout | undefined;
  const tty = out.isTTY === true;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (tty) out.write('\r\x1b[2K');
  };
  return {
    start(info) {
      stop();
      const what = formatDeferred(info.deferred, clock(), zone) ?? 'deferred contacts';
      const line = () => {
        const left = Math.max(0, info.until - clock());
        const text = `waiting: ${what}; next run at ${formatTime(info.until, zone, clock())} (in ${duration(left)}); Ctrl+C to stop`;
        out.write(tty ? `\r\x1b[2K${text}` : `${new Date(clock()).toISOString()} ${text}\n`);
      };
      line();
      timer = setInterval(line, tty ? 1000 : LINE_EVERY_MS);
      timer.unref();
    },
    stop,
  };
}

function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
