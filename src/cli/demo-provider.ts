import type { StateStore } from '../checkpoint/index.js';
import type { RunningSimulator } from '../sim/index.js';
import { formatTime, localZone } from './format/time.js';

/** The two contacts the demo's provider refuses: a number not on WhatsApp (131026), and one at WhatsApp's per-user marketing limit (131049). */
export interface DemoRefusals {
  undeliverable: string;
  limited: string;
}

/** Makes the simulated provider refuse the last two contacts the plan lets through; returns them and a line saying so. */
export function forceDemoRefusals(sim: RunningSimulator, planned: readonly string[]): { refusals?: DemoRefusals; line: string } {
  const undeliverable = planned.at(-1);
  const limited = planned.at(-2);
  if (undeliverable === undefined || limited === undefined) return { line: '' };
  sim.state.forceProviderError(undeliverable, 131026);
  sim.state.forceProviderError(limited, 131049);
  return {
    refusals: { undeliverable, limited },
    line: `   the provider will refuse ${undeliverable} (not on WhatsApp: 131026) and ${limited} (its marketing limit reached: 131049)`,
  };
}

/** What became of the two refused contacts after resume (whose exit code is given), from the job's state. */
export async function describeDemoRefusals(store: StateStore, job: string, refusals: DemoRefusals | undefined, exitCode: number): Promise<string[]> {
  if (!refusals) return [];
  const states = (await store.readJob(job))?.states;
  const dead = states?.get(refusals.undeliverable);
  const limited = states?.get(refusals.limited);
  const lines = [`   (exit code ${exitCode}${exitCode === 1 ? ': a contact the provider refused for good is failed, not done' : ''})`];
  if (dead?.status === 'failed') {
    lines.push(`   ${dead.phone}: failed after one request, ${dead.error.split(':')[0] ?? dead.error}; resume never retries it (error_class ${dead.errorClass ?? 'other'} in the report)`);
  }
  if (limited?.status === 'deferred') {
    lines.push(`   ${limited.phone}: deferred (${limited.reason}) until ${formatTime(Date.parse(limited.notBefore), localZone(), Date.now())}; a run after that sends it on the same conversation`);
  }
  return lines;
}
