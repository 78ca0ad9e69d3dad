import type { ContactState, ContactStates, StateStore } from '../../checkpoint/index.js';
import type { Job } from '../../job/index.js';
import { armOf } from '../../plan/experiment-arm.js';
import type { ExperimentFacts } from '../../plan/context.js';
import type { ReportRow } from '../../report/index.js';
import { decideArms, rateWithInterval, type ArmResult } from './stats.js';

const HOUR_MS = 3_600_000;

type Experiment = NonNullable<Job['experiment']>;
type ExperimentJob = Pick<Job, 'name'> & { experiment: Experiment };

/** The decision as the store keeps it (the job's note `experiment`). */
export interface ExperimentDecision {
  decided_at: string;
  winner: string;
  /** `significant`: the test said so at `confidence`; `fallback`: it did not, and the fallback arm goes. */
  by: 'significant' | 'fallback';
  metric: Experiment['metric'];
  confidence: number;
  p_value: number;
  arms: Array<{ arm: string; sent: number; successes: number; rate: number; low: number; high: number }>;
}

/** The decision the store holds for the job, if any. */
export async function experimentDecision(store: StateStore, job: string): Promise<ExperimentDecision | undefined> {
  const note = await store.jobNote(job, 'experiment');
  return isDecision(note) ? note : undefined;
}

function isDecision(value: unknown): value is ExperimentDecision {
  return value !== null && typeof value === 'object' && typeof (value as { winner?: unknown }).winner === 'string' && Array.isArray((value as { arms?: unknown }).arms);
}

/** The arm a contact gets: its test arm, else the winner once decided (undefined before). Pure. */
export function armFor(phone: string, job: ExperimentJob, winner: string | undefined): string | undefined {
  const draw = armOf(phone, job.name, job.experiment);
  return draw.test ? draw.arm : winner;
}

/** When the decision is due: the test's first send plus decide_after_hours (undefined while the test has sent nothing). Pure. */
export function decisionTime(job: ExperimentJob, states: Iterable<ContactState>): number | undefined {
  let first: number | undefined;
  for (const s of states) {
    if (s.status !== 'sent' || !armOf(s.phone, job.name, job.experiment).test) continue;
    const at = Date.parse(s.sentAt);
    if (!Number.isNaN(at) && (first === undefined || at < first)) first = at;
  }
  return first === undefined ? undefined : first + job.experiment.decide_after_hours * HOUR_MS;
}

/** What the planner needs of an experiment for the whole pass: the decision and when it is due. */
export interface ExperimentLookup {
  job: ExperimentJob;
  winner?: string;
  decideAt?: number;
}

export async function experimentLookup(store: StateStore, job: Pick<Job, 'name' | 'experiment'>, states: ContactStates | undefined): Promise<ExperimentLookup | undefined> {
  const { experiment } = job;
  if (experiment === undefined) return undefined;
  const ej = { name: job.name, experiment };
  const decision = await experimentDecision(store, job.name);
  const decideAt = states && decisionTime(ej, states.values());
  return { job: ej, ...(decision && { winner: decision.winner }), ...(decideAt !== undefined && { decideAt }) };
}

/** The planner's facts for one contact. Pure. */
export function experimentFacts(lookup: ExperimentLookup, phone: string): ExperimentFacts {
  const draw = armOf(phone, lookup.job.name, lookup.job.experiment);
  return {
    test: draw.test,
    ...(draw.test && { arm: draw.arm }),
    ...(lookup.winner !== undefined && { winner: lookup.winner }),
    ...(lookup.decideAt !== undefined && { decideAt: lookup.decideAt }),
  };
}

/** One arm's test contacts: how many were sent, delivered, read, replied to; the metric's rate with its 95 % interval. */
export interface ArmTally {
  arm: string;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  /** The metric's rate over the sent, with its 95 % interval. */
  rate: number;
  low: number;
  high: number;
}

/** An experiment's state for status and the report: the test's arms, the rest, and the decision once made. */
export interface ExperimentView {
  metric: Experiment['metric'];
  testShare: number;
  arms: ArmTally[];
  /** Contacts outside the test: sent the winner, and waiting for the decision. */
  rest: { sent: number; waiting: number };
  /** When the decision is due (ISO), while it is not made. */
  decideAt?: string;
  decision?: ExperimentDecision;
}

/** The tallies of the test's arms from the states (what `metric` counts). Pure. */
export function armTallies(job: ExperimentJob, states: Iterable<ContactState>, replies: ReadonlyMap<string, string>): { arms: ArmTally[]; rest: ExperimentView['rest'] } {
  const names = Object.keys(job.experiment.arms);
  const counts = new Map(names.map((arm) => [arm, { arm, sent: 0, delivered: 0, read: 0, replied: 0 }]));
  const rest = { sent: 0, waiting: 0 };
  for (const s of states) {
    const draw = armOf(s.phone, job.name, job.experiment);
    if (!draw.test) {
      if (s.status === 'sent') rest.sent += 1;
      else if (s.status === 'deferred' && s.reason === 'experiment') rest.waiting += 1;
      continue;
    }
    const c = counts.get(draw.arm);
    if (c === undefined || s.status !== 'sent') continue;
    c.sent += 1;
    const d = s.delivery?.status;
    if (d === 'delivered' || d === 'read') c.delivered += 1;
    if (d === 'read') c.read += 1;
    if (replies.has(s.phone)) c.replied += 1;
  }
  const arms = [...counts.values()].map((c) => ({ ...c, ...rateWithInterval(c[job.experiment.metric], c.sent) }));
  return { arms, rest };
}

/** The decision from the test's tallies at `now`. Pure. */
export function decideExperiment(job: ExperimentJob, arms: readonly ArmTally[], now: number): ExperimentDecision {
  const { metric, confidence, fallback } = job.experiment;
  const verdict = decideArms(
    arms.map((a) => ({ arm: a.arm, n: a.sent, successes: a[metric] })),
    confidence,
    fallback,
  );
  return {
    decided_at: new Date(now).toISOString(),
    winner: verdict.winner,
    by: verdict.by,
    metric,
    confidence,
    p_value: verdict.pValue,
    arms: verdict.arms.map((a: ArmResult) => ({ arm: a.arm, sent: a.n, successes: a.successes, rate: a.rate, low: a.low, high: a.high })),
  };
}

/** The experiment's view for status and the report. */
export async function experimentView(store: StateStore, job: Pick<Job, 'name' | 'experiment'>, states: ContactStates, replies: ReadonlyMap<string, string>): Promise<ExperimentView | undefined> {
  const { experiment } = job;
  if (experiment === undefined) return undefined;
  const ej = { name: job.name, experiment };
  const decision = await experimentDecision(store, job.name);
  const decideAt = decision ? undefined : decisionTime(ej, states.values());
  const { arms, rest } = armTallies(ej, states.values(), replies);
  return {
    metric: experiment.metric,
    testShare: experiment.test_share,
    arms,
    rest,
    ...(decideAt !== undefined && { decideAt: new Date(decideAt).toISOString() }),
    ...(decision && { decision }),
  };
}

/** The report's rows with each contact's arm (`arm` column). */
export async function* withArms(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>, job: ExperimentJob, winner: string | undefined): AsyncGenerator<ReportRow> {
  for await (const row of rows) {
    const arm = armFor(row.phone, job, winner);
    yield arm === undefined ? row : { ...row, arm };
  }
}
