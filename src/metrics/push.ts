import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Pushgateway, type Registry } from 'prom-client';

/** The Pushgateway job every group of outreach is pushed under; the group's own labels say which campaign and command. */
export const PUSH_JOB = 'outreach';

/** How long one push may take before it is given up (the run goes on; the next push tries again). */
export const PUSH_TIMEOUT_MS = 5_000;

/**
 * Pushes the registry to a Pushgateway into one group, `job="outreach"` plus `grouping` (e.g. the
 * campaign and the command), with POST: the families pushed replace the same families of that group
 * only. Other groups are never touched, and a family not pushed stays: a failed run, which pushes no
 * `*_last_success_timestamp_seconds`, keeps the last success a run before it pushed.
 */
export async function pushGroup(url: string, registry: Registry, grouping: Readonly<Record<string, string>>): Promise<void> {
  // No keep-alive: one request now and then, and nothing left open to hold the process.
  const agent = url.startsWith('https:') ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
  const gateway = new Pushgateway(url, { timeout: PUSH_TIMEOUT_MS, agent }, registry);
  try {
    await gateway.pushAdd({ jobName: PUSH_JOB, groupings: { ...grouping } });
  } finally {
    agent.destroy();
  }
}
