/**
 * The platform simulator in a process of its own, driven over IPC by bench/lib/sim-process.ts.
 * argv[2] is the SimOptions as JSON. It answers `stats` with what the simulator counted and `close`
 * by shutting down. Started with `fork`, so the bench's client and the server each get a core.
 */
import { startSimulator, type SimOptions } from '../../src/sim/index.js';
import { cpuSeconds, rssSampler } from './measure.js';
import type { ChildMessage, ParentMessage, SimStats, StartsOfChannel } from './sim-process.js';

const options = JSON.parse(process.argv[2] ?? '{}') as SimOptions;
const sim = await startSimulator(options);
const rss = rssSampler(100);

function stats(): SimStats {
  const s = sim.state;
  const walls = s.requests.map((r) => r.wall).sort((a, b) => a - b);
  return {
    total: s.counters.total,
    byStatus: { ...s.counters.byStatus },
    rateLimited: s.counters.rateLimited,
    messagesOutbound: s.counters.messagesOutbound,
    clients: s.clients.size,
    logged: s.requests.length,
    firstWall: walls[0],
    lastWall: walls.at(-1),
    maxInOneSecond: s.maxRequestsInWindow(1000),
    busiestSecondAtMs: walls.length > 0 ? busiestWindowStart(walls, 1000) - walls[0]! : undefined,
    perSecond: [...s.requestsPerSecond().entries()].sort((a, b) => a[0] - b[0]),
    peakRssMb: rss.peak(),
    cpuSeconds: cpuSeconds(),
    startsByChannel: startsByChannel(),
  };
}

/** The accepted start-whatsapp requests of each number, as they arrived. */
function startsByChannel(): StartsOfChannel[] {
  const byChannel = new Map<number, number[]>();
  for (const r of sim.state.requests) {
    if (r.endpoint !== 'POST /chat/conversations/start-whatsapp' || r.status !== 200) continue;
    const id = (r.body as { channel_id?: unknown }).channel_id;
    if (typeof id !== 'number') continue;
    const walls = byChannel.get(id) ?? [];
    walls.push(r.wall);
    byChannel.set(id, walls);
  }
  return [...byChannel].map(([channelId, walls]) => {
    walls.sort((a, b) => a - b);
    const busiest = busiestWindowStart(walls, 1000);
    const most = walls.filter((w) => w >= busiest && w < busiest + 1000).length;
    return { channelId, accepted: walls.length, firstWall: walls[0]!, lastWall: walls.at(-1)!, maxInOneSecond: most, busiestSecondAtMs: busiest - walls[0]! };
  });
}

/** Where the busiest window [t, t + windowMs) of sorted times starts (the first such, as a time). */
function busiestWindowStart(sorted: readonly number[], windowMs: number): number {
  let best = 0;
  let at = sorted[0]!;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    if (j - i + 1 > best) {
      best = j - i + 1;
      at = sorted[i]!;
    }
  }
  return at;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'stats':
      send({ type: 'stats', stats: stats() });
      return;
    case 'close':
      rss.stop();
      void sim.close().then(() => {
        send({ type: 'closed' });
        process.disconnect();
      });
      return;
    default: {
      const never: never = message;
      return never;
    }
  }
});
// The parent going away (a crash, Ctrl-C) must not leave a simulator listening.
process.on('disconnect', () => void sim.close().then(() => process.exit(0)));

send({ type: 'ready', url: sim.url, token: sim.token });
