import { jobReport, trackJob } from '../app/index.js';
import type { StateStore } from '../checkpoint/index.js';
import type { RunningSimulator, SimDelivery } from '../sim/index.js';
import { formatTrack } from './format/track.js';
import { openApi } from './api-root.js';

/** The demo's platform moves messages to delivered, read or failed like a real campaign (the simulator's clock jumps ahead). */
export const DEMO_DELIVERY: SimDelivery = { delivered: 0.9, read: 0.6, failed: 0.05 };
/** Contacts that answer the campaign's message. */
const DEMO_ANSWERS = 9;

/**
 * The demo's step after the run: a few contacts answer, two hours pass on the platform, `outreach
 * track` reads every message back and prints the funnel, and report.html is written. Returns its path.
 */
export async function demoTrack(
  jobFile: string,
  context: { store: StateStore; sim: RunningSimulator; settled: () => Promise<void>; say: (text: string) => void; step: string },
): Promise<string> {
  const { store, sim, say } = context;
  const sent = [...sim.state.clients.values()].filter((c) => c.lastInboundAt === null).slice(0, DEMO_ANSWERS);
  for (const client of sent) sim.state.inbound(client.phone, 'Quero o cupom!');
  await sim.state.webhookIdle();
  await context.settled();
  sim.state.advanceClock(2 * 3_600_000);
  say(`\n== ${context.step}. Two hours later, ${sent.length} contacts answered. outreach track: what happened after "accepted"`);
  const api = openApi({ baseUrl: sim.url, token: sim.token });
  try {
    const outcome = await trackJob(jobFile, { store, api, owner: { pid: process.pid } });
    say(formatTrack(outcome).trimEnd().replace(/^/gm, '   '));
  } finally {
    await api.close();
  }
  return (await jobReport(jobFile, { store, format: 'html' })).file;
}
