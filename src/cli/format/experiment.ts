import type { ExperimentView } from '../../app/index.js';
import { count, percent, type ForPeople } from '../../locale/people.js';
import { formatTime, readers, type Readers } from './time.js';

/** An experiment for `status` (and the end of `run`): each arm's counts and rate with its 95 % interval, the rest, the decision. */
export function formatExperiment(e: ExperimentView, now: number, r: Readers): string {
  const p: ForPeople = readers(r);
  const pct = (x: number) => percent(p, x);
  const n = (x: number) => count(p, x);
  const lines = [`  experiment: ${pct(e.testShare)} of the list in the test, compared on ${e.metric}`];
  for (const a of e.arms) {
    lines.push(
      `    arm ${a.arm.padEnd(10)} sent ${n(a.sent)}, delivered ${n(a.delivered)}, read ${n(a.read)}, replied ${n(a.replied)}; ${e.metric} ${pct(a.rate)} (95% ${pct(a.low)}–${pct(a.high)})`,
    );
  }
  const d = e.decision;
  if (d) {
    const how = d.by === 'significant' ? `better at ${pct(d.confidence)} confidence` : `no arm better at ${pct(d.confidence)} confidence: the fallback`;
    lines.push(`    decided ${formatTime(Date.parse(d.decided_at), r, now)}: arm ${d.winner} (${how}; p = ${d.p_value.toPrecision(2)})`);
    lines.push(`    the rest: ${n(e.rest.sent)} sent arm ${d.winner}${e.rest.waiting > 0 ? `, ${n(e.rest.waiting)} still deferred` : ''}`);
  } else {
    const when = e.decideAt !== undefined ? `from ${formatTime(Date.parse(e.decideAt), r, now)}` : 'once the test has sent';
    lines.push(`    not decided yet: ${n(e.rest.waiting)} contacts wait for the winner; a \`run\` decides ${when} (\`run --wait\` waits for it)`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same, for `--json`. */
export function experimentJson(e: ExperimentView) {
  return { metric: e.metric, test_share: e.testShare, arms: e.arms, rest: e.rest, decide_at: e.decideAt ?? null, decision: e.decision ?? null };
}
