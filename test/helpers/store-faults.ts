/**
 * For the tests of a database store's faults (a terminated session, a pooler's restart, an outage):
 * the built CLI in a process of its own against the simulator, and what the store and the simulator
 * hold afterwards. What is asserted is what the simulator received and what the store kept, never
 * how long anything took.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import type { RunningSimulator } from '../../src/sim/index.js';
import { cliPath } from './cli.js';

export const START = 'POST /chat/conversations/start-whatsapp';

export interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** `outreach <args>` in a process of its own; `cleanups` gets its kill. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, cleanups: Array<() => Promise<unknown>>): Running {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, exited, output: () => out };
}

/** The environment of a run on `store` against `sim`, its files for people in `stateDir`. */
export function storeEnv(sim: RunningSimulator, store: string, stateDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: store, OUTREACH_STATE_DIR: stateDir, OUTREACH_LEASE_SECONDS: '2', ...extra };
}

/** Conversations the simulator was asked to start (each a first message's request). */
export function starts(sim: RunningSimulator): number {
  return sim.state.counters.byEndpoint[START] ?? 0;
}

/** How many things `schema` holds twice: journal rows (the same job and event text: each event carries its own time, so none is so by right) and first messages in the ledger (one phone's entry of one job). */
export async function writtenTwice(url: string, schema: string): Promise<{ journal: number; ledger: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = async (sql: string) => (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) d`)).rows[0]?.n ?? 0;
    return {
      journal: await count(`SELECT job, event FROM "${schema}".journal GROUP BY job, event HAVING count(*) > 1`),
      ledger: await count(`SELECT job, phone FROM "${schema}".ledger_ops WHERE op = 'add' GROUP BY job, phone HAVING count(*) > 1`),
    };
  } finally {
    await client.end();
  }
}
