/** Simulators a test starts (closed after it), the environment an in-process CLI run gets for one, and the phones its first messages went to. */
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';

const START = 'POST /chat/conversations/start-whatsapp';

export interface Simulators {
  /** A simulator of the seed given, closed by `closeAll`. */
  start(): Promise<RunningSimulator>;
  closeAll(): Promise<void>;
}

export function simulators(seed: number): Simulators {
  let sims: RunningSimulator[] = [];
  return {
    async start() {
      const sim = await startSimulator({ seed });
      sims.push(sim);
      return sim;
    },
    async closeAll() {
      await Promise.all(sims.map((s) => s.close()));
      sims = [];
    },
  };
}

/** What `cli(args, …)` gets to run against `sim` with the state in `stateDir`. */
export function cliEnv(sim: RunningSimulator, stateDir: string): { env: Record<string, string> } {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: stateDir } };
}

/** The phones the simulator received a first message for, in order. */
export function startsTo(sim: RunningSimulator): string[] {
  return sim.state.requests.filter((q) => q.endpoint === START).map((q) => (q.body as { phone: string }).phone);
}
