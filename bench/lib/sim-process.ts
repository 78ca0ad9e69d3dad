/**
 * Starts the simulator in a child process (bench/lib/sim-child.ts) and talks to it over IPC.
 * Every executor measurement and its baseline get a fresh one, so neither inherits the other's
 * clients, conversations or JIT state, and the server never competes with the client for a core
 * inside one event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SimOptions } from '../../src/sim/index.js';

/** What the simulator counted, read after a measurement. */
export interface SimStats {
  /** API requests that reached it. */
  total: number;
  byStatus: Record<string, number>;
  rateLimited: number;
  messagesOutbound: number;
  clients: number;
  /** Entries in its request log (0 with `logRequests: false`). */
  logged: number;
  /** Date.now() at the arrival of the first and last logged request. */
  firstWall: number | undefined;
  lastWall: number | undefined;
  /** Most API requests that arrived in any sliding 1,000 ms window (`maxRequestsInWindow(1000)`). */
  maxInOneSecond: number;
  /** Where the busiest logged second starts, in ms after the first logged request. */
  busiestSecondAtMs: number | undefined;
  /** [epoch second, requests] pairs, ascending. */
  perSecond: Array<[number, number]>;
  /** The simulator process's highest RSS so far. */
  peakRssMb: number;
  /** CPU seconds (user + system) the simulator process has used so far. */
  cpuSeconds: number;
  /** Per number (channel id), the start-whatsapp requests it accepted (200) as they arrived: how many, first and last arrival, the most in any sliding 1,000 ms. */
  startsByChannel: StartsOfChannel[];
}

export interface StartsOfChannel {
  channelId: number;
  accepted: number;
  firstWall: number;
  lastWall: number;
  maxInOneSecond: number;
  /** Where that busiest second starts, in ms after the number's first accepted start-whatsapp. */
  busiestSecondAtMs: number;
}

export type ParentMessage = { type: 'stats' } | { type: 'close' };
export type ChildMessage =
  | { type: 'ready'; url: string; token: string }
  | { type: 'stats'; stats: SimStats }
  | { type: 'closed' };

export interface SimProcess {
  url: string;
  token: string;
  pid: number;
  stats(): Promise<SimStats>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./sim-child.js', import.meta.url));
const START_TIMEOUT_MS = 15_000;

export async function startSimProcess(options: SimOptions = {}): Promise<SimProcess> {
  const child = fork(CHILD, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await nextMessage(child, 'ready', START_TIMEOUT_MS).catch((err: unknown) => {
    child.kill();
    throw err;
  });
  let closing: Promise<void> | undefined;
  return {
    url: ready.url,
    token: ready.token,
    pid: child.pid!,
    async stats() {
      const answer = nextMessage(child, 'stats', START_TIMEOUT_MS);
      child.send({ type: 'stats' } satisfies ParentMessage);
      return (await answer).stats;
    },
    close() {
      closing ??= (async () => {
        if (child.exitCode !== null || !child.connected) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.send({ type: 'close' } satisfies ParentMessage);
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the simulator process exited (code ${code}) before sending '${type}'`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the simulator process sent no '${type}' within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
