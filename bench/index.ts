/**
 * `npm run bench`: the executor's benches (bench/run.ts) and the loader's (bench/load.ts), each in
 * a fresh Node process, then bench/results.md and the same table on stdout. Exits 0 even when a
 * goal is missed: it is a report, and a miss is marked NO in the table.
 *
 * `npm run bench -- nightly capacity` runs only the benches named (run, load, latency, scale, pg,
 * pool, nightly, capacity) and prints their table; bench/results.md is written only by a whole run.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { runIsolated } from './lib/isolated.js';
import { fmt } from './lib/measure.js';
import type { BenchLatencyResult, InFlightMemory, LatencyCaseResult } from './latency.js';
import type { BenchRunResult, RateResult, ThroughputResult } from './run.js';
import type { BenchScaleResult } from './scale.js';
import type { BenchPgResult } from './pg.js';
import type { BenchPoolResult } from './pool.js';
import type { BenchNightlyResult } from './nightly.js';
import type { BenchPgCapacityResult } from './pg-capacity.js';

/** What index.ts reads of bench/load.ts's `benchLoad` (checked at run time: that file is someone else's). */
interface LoadFigures {
  loaderRowsPerSec: number;
  baselineRowsPerSec: number;
  ratio: number;
  peakRssMb: number;
  rows: number;
  contacts?: number;
  rejected?: number;
  processMaxRssMb?: number;
}

interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
  /** undefined: information only. */
  met: boolean | undefined;
  /** Why a goal was not met, or why there is no figure. */
  note?: string;
}

const RESULTS = fileURLToPath(new URL('../../bench/results.md', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const started = new Date();
  const loadBefore = os.loadavg();
  const t0 = Date.now();

  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = only.filter((name) => !BENCHES.includes(name));
  if (unknown.length > 0) throw new Error(`no bench named ${unknown.join(', ')}; the benches are ${BENCHES.join(', ')}`);
  const bench = async (name: string, title: string, file: string, fn: string) => {
    if (only.length > 0 && !only.includes(name)) return { ok: false as const, error: 'not run (another bench was named)' };
    log(`== ${title} (bench/${file.replace('.js', '.ts')}) ==`);
    return runIsolated(new URL(`./${file}`, import.meta.url), fn, {});
  };
  const run = await bench('run', 'executor benches', 'run.js', 'benchRun');
  const load = await bench('load', 'loader bench', 'load.js', 'benchLoad');
  const latency = await bench('latency', 'rate at real latency', 'latency.js', 'benchLatency');
  const scale = await bench('scale', 'a million-contact job', 'scale.js', 'benchScale');
  const pg = await bench('pg', 'the PostgreSQL store', 'pg.js', 'benchPg');
  const pool = await bench('pool', 'a pool of numbers', 'pool.js', 'benchPool');
  const nightly = await bench('nightly', 'a million-contact job as a nightly import meets it', 'nightly.js', 'benchNightly');
  const capacity = await bench('capacity', "the database store's capacity", 'pg-capacity.js', 'benchPgCapacity');

  const seconds = (Date.now() - t0) / 1000;
  const loadAfter = os.loadavg();
  const rows: Row[] = [];
  const notes: string[] = [];

  if (run.ok) {
    const r = run.value as BenchRunResult;
    if (r.throughput) rows.push(...throughputRows(r.throughput));
    if (r.rate) rows.push(...rateRows(r.rate));
  } else {
    rows.push(unavailable('Executor benches (bench/run.ts)', run.error));
  }
  if (load.ok && isLoadFigures(load.value)) rows.push(...loadRows(load.value));
  else rows.push(unavailable('Loader bench (bench/load.ts)', load.ok ? `unexpected result ${JSON.stringify(load.value)}` : load.error));

  if (latency.ok) rows.push(...latencyRows(latency.value as BenchLatencyResult));
  else rows.push(unavailable('Rate at real latency (bench/latency.ts)', latency.error));
  if (scale.ok) rows.push(...scaleRows(scale.value as BenchScaleResult));
  else rows.push(unavailable('A million-contact job (bench/scale.ts)', scale.error));
  if (pg.ok) rows.push(...pgRows(pg.value as BenchPgResult));
  else rows.push(unavailable('The PostgreSQL store (bench/pg.ts)', pg.error));
  if (pool.ok) rows.push(...poolRows(pool.value as BenchPoolResult));
  else rows.push(unavailable('A pool of numbers (bench/pool.ts)', pool.error));
  if (nightly.ok) rows.push(...nightlyRows(nightly.value as BenchNightlyResult));
  else rows.push(unavailable('A million-contact job as a nightly import meets it (bench/nightly.ts)', nightly.error));
  if (capacity.ok) rows.push(...capacityRows(capacity.value as BenchPgCapacityResult));
  else rows.push(unavailable("The database store's capacity (bench/pg-capacity.ts)", capacity.error));
  // A partial run (benches named) shows only theirs.
  if (only.length > 0) {
    const shown = rows.filter((r) => r.note !== 'no figures: not run (another bench was named)');
    rows.length = 0;
    rows.push(...shown);
  }

  for (const row of rows) if (row.note) notes.push(`- **${row.figure}**: ${row.note}`);
  const table = renderTable(rows);
  const machine = machineLines(started, seconds, loadBefore, loadAfter);
  const markdown = [
    '# Benchmark results',
    '',
    `Generated by \`npm run bench\` (bench/index.ts) on ${started.toISOString()}. Every figure is compared with a baseline measured in the same run; how each was measured is below.`,
    '',
    table,
    '',
    ...(notes.length > 0 ? ['## Goals missed, figures missing', '', ...notes, ''] : []),
    '## Machine',
    '',
    ...machine.map((l) => `- ${l}`),
    '',
    '## How each figure was measured',
    '',
    ...howMeasured(run.ok ? (run.value as BenchRunResult) : undefined, load.ok && isLoadFigures(load.value) ? load.value : undefined),
    ...howMeasuredLatency(latency.ok ? (latency.value as BenchLatencyResult) : undefined),
    ...howMeasuredScale(scale.ok ? (scale.value as BenchScaleResult) : undefined),
    ...howMeasuredPg(),
    ...howMeasuredPool(),
    ...howMeasuredNightly(nightly.ok ? (nightly.value as BenchNightlyResult) : undefined),
    ...howMeasuredCapacity(capacity.ok ? (capacity.value as BenchPgCapacityResult) : undefined),
  ].join('\n');
  if (only.length === 0) writeFileSync(RESULTS, markdown.endsWith('\n') ? markdown : `${markdown}\n`);

  console.log(table);
  if (notes.length > 0) console.log(['', ...notes].join('\n'));
  console.log(['', ...machine].join('\n'));
  console.log(only.length === 0 ? `\nwritten to ${RESULTS}` : `\nonly ${only.join(', ')} ran: ${RESULTS} is written by a whole run`);
}

const BENCHES = ['run', 'load', 'latency', 'scale', 'pg', 'pool', 'nightly', 'capacity'];

// ---- rows -----------------------------------------------------------------------------------

/**
 * Issue 23: the executor's CPU per contact at most half of what it was when filed, 84 µs against
 * autocannon's 24 µs per request on the same route (3.5×): as a ratio to autocannon in the same run.
 */
const CPU_GOAL = 1.75;

function throughputRows(t: ThroughputResult): Row[] {
  const perSecOk = t.contactsPerSec >= 1000 && t.allSent;
  const ratioOk = t.ratio >= 0.5;
  const missed: string[] = [];
  if (!t.allSent) missed.push('not every contact ended `sent`');
  if (t.contactsPerSec < 1000) missed.push(`${fmt(t.contactsPerSec)} contacts/s is under 1,000`);
  if (!ratioOk) missed.push(`ratio ${t.ratio} is under 0.5`);
  const paired = t.contactsPerSecRounds.map((e, i) => (e / t.autocannon.reqPerSecRounds[i]!).toFixed(2)).join(', ');
  const cpuRatio = (t.cpu.autocannonUsPerRequest + t.cpu.simUsPerRequest) / (t.cpu.executorUsPerContact + t.cpu.simUsPerContact);
  // The bench process only: the executor's CPU per contact over autocannon's per request (the simulator's is the same server's work).
  const cpuOfAutocannon = t.cpu.executorUsPerContact / t.cpu.autocannonUsPerRequest;
  const cpuMet = cpuOfAutocannon <= CPU_GOAL;
  return [
    {
      figure: `Executor throughput (${fmt(t.contacts)} contacts, limiter off, ${t.concurrency} workers, fsync'd checkpoint)`,
      value: `${fmt(t.contactsPerSec)} contacts/s`,
      baseline: `autocannon ${fmt(t.autocannon.reqPerSec)} req/s`,
      ratio: t.ratio.toFixed(2),
      goal: '≥ 1,000 contacts/s and ratio ≥ 0.5',
      met: perSecOk && ratioOk,
      ...(missed.length > 0
        ? { note: `${missed.join('; ')}. Rounds (executor / autocannon): ${t.contactsPerSecRounds.map((n) => fmt(n)).join(', ')} / ${t.autocannon.reqPerSecRounds.map((n) => fmt(n)).join(', ')}; paired-round ratios ${paired}; CPU-cost ratio ${cpuRatio.toFixed(2)}. On a shared 2-core machine a busy neighbour moves these by ±40 %: compare the paired ratios and the load average below.` }
        : {}),
    },
    {
      figure: 'Executor CPU per contact (bench process + simulator process)',
      value: `${t.cpu.executorUsPerContact} + ${t.cpu.simUsPerContact} µs`,
      baseline: `autocannon ${t.cpu.autocannonUsPerRequest} + ${t.cpu.simUsPerRequest} µs`,
      ratio: cpuOfAutocannon.toFixed(2),
      goal: `≤ ${CPU_GOAL}× autocannon's (half of 84 ÷ 24 µs when the issue was filed)`,
      met: cpuMet,
      ...(cpuMet
        ? {}
        : {
            note: `the executor used ${t.cpu.executorUsPerContact} µs of the bench process's CPU per contact, ${cpuOfAutocannon.toFixed(2)}× autocannon's ${t.cpu.autocannonUsPerRequest} µs per request (goal ≤ ${CPU_GOAL}×). Beyond autocannon's request, each contact costs its plan (the template rendered for the person), two journal lines (serialised, written and fdatasync'd on libuv's threads, group-committed), the fold of both events into the state table, and undici's request and response handling.`,
          }),
    },
    {
      figure: `Peak RSS of the executor's process during a ${fmt(t.contacts)}-contact run`,
      value: `${fmt(t.peakRssMb)} MB`,
      baseline: `${fmt(t.rssBeforeMb)} MB before it`,
      ratio: '–',
      goal: '(information)',
      met: undefined,
    },
    {
      figure: `Checkpoint journal after ${fmt(t.contacts)} contacts`,
      value: `${fmt(t.journalBytes / 2 ** 20, 1)} MB (${fmt(t.journalBytes / t.contacts)} bytes/contact)`,
      baseline: `${fmt(t.journalEvents)} events in ${fmt(t.journalFlushes)} fsyncs`,
      ratio: `${fmt(t.journalEvents / t.journalFlushes, 1)} events/fsync`,
      goal: '(information)',
      met: undefined,
    },
  ];
}

function rateRows(r: RateResult): Row[] {
  const accurate = Math.abs(r.ratio - 1) <= 0.03;
  const capped = r.maxInOneSecond <= r.asked;
  return [
    {
      figure: `Rate accuracy: ${fmt(r.contacts)} contacts at createRateLimiter({ perSecond: ${r.asked} }), ${r.concurrency} workers`,
      value: `${r.achievedPerSec.toFixed(2)}/s`,
      baseline: `${r.asked}/s asked`,
      ratio: r.ratio.toFixed(3),
      goal: `within 3 % of ${r.asked}/s`,
      met: accurate,
      ...(accurate ? {} : { note: `${r.achievedPerSec.toFixed(2)}/s is ${((1 - r.ratio) * 100).toFixed(1)} % ${r.ratio < 1 ? 'under' : 'over'} the ${r.asked}/s asked.` }),
    },
    {
      figure: `Most requests in any sliding second at ${r.asked}/s (as the simulator counted them)`,
      value: `${r.maxInOneSecond}`,
      baseline: `${r.asked} asked`,
      ratio: (r.maxInOneSecond / r.asked).toFixed(2),
      goal: `≤ ${r.asked}`,
      met: capped,
      ...(capped ? {} : { note: `${r.maxInOneSecond} requests arrived within one second, in the window starting ${r.busiestSecondAtMs} ms after the first request.` }),
    },
  ];
}

function loadRows(l: LoadFigures): Row[] {
  const ratioOk = l.ratio >= 0.8;
  const rssOk = l.peakRssMb < 300;
  return [
    {
      figure: `Loader throughput (${fmt(l.rows)} generated rows)`,
      value: `${fmt(l.loaderRowsPerSec)} rows/s`,
      baseline: `csv-parse + libphonenumber ${fmt(l.baselineRowsPerSec)} rows/s`,
      ratio: l.ratio.toFixed(2),
      goal: 'ratio ≥ 0.8',
      met: ratioOk,
      ...(ratioOk ? {} : { note: `ratio ${l.ratio} is under 0.8 (see bench/load.ts).` }),
    },
    {
      figure: 'Loader peak RSS while loading',
      value: `${fmt(l.peakRssMb)} MB`,
      baseline: '–',
      ratio: '–',
      goal: '< 300 MB',
      met: rssOk,
      ...(rssOk ? {} : { note: `${l.peakRssMb} MB is over 300 MB.` }),
    },
  ];
}

function latencyRows(l: BenchLatencyResult): Row[] {
  const rows: Row[] = [];
  for (const c of l.cases) rows.push(...latencyCaseRows(c), ...rampRows(c));
  if (l.campaign) rows.push(...campaignRows(l.campaign));
  if (l.memory) rows.push(memoryRow(l.memory));
  return rows;
}

function latencyCaseRows(c: LatencyCaseResult): Row[] {
  const { auto, fixed64 } = c;
  const baseline = fixed64 ? `fixed concurrency 64: ${fmt(fixed64.achievedPerSec, 1)}/s` : '–';
  const versus = fixed64 ? `; ${(auto.achievedPerSec / fixed64.achievedPerSec).toFixed(1)}× fixed 64` : '';
  const steady = auto.steadyPerSec ?? auto.achievedPerSec;
  const share = steady / c.perSecond;
  const met = share >= 0.95 && auto.sent === auto.contacts;
  const capped = auto.maxPacedInOneSecond <= c.perSecond;
  const where = `${fmt(c.latencyMs)} ms ± ${fmt(c.jitterMs)} latency, ${c.perSecond}/s asked`;
  return [
    {
      figure: `Rate reached at ${where}, default settings (concurrency "auto"), ${fmt(auto.contacts)} contacts`,
      value: `${fmt(steady, 1)}/s after the first 5 s (${fmt(auto.achievedPerSec, 1)}/s over the whole ${fmt(auto.seconds, 1)} s run; ${fmt(auto.peakInFlight)} in flight at most)`,
      baseline,
      ratio: `${(share * 100).toFixed(1)} % of asked${versus}`,
      goal: '≥ 95 % of the asked rate',
      met,
      ...(met
        ? {}
        : { note: `${fmt(steady, 1)}/s is ${(share * 100).toFixed(1)} % of ${c.perSecond}/s (whole run ${fmt(auto.achievedPerSec, 1)}/s; ${auto.sent} of ${auto.contacts} sent). The limiter's pacing window (1,020 ms for a second's permits) caps a run at 98 % of the rate; a busy neighbour on the 2 cores delays its timers further.` }),
    },
    {
      figure: `Most requests in any sliding second at ${where}: as the runner let them go / as the simulator saw them arrive`,
      value: `${auto.maxPacedInOneSecond} / ${auto.maxInOneSecond}`,
      baseline: `${c.perSecond} asked`,
      ratio: `${(auto.maxPacedInOneSecond / c.perSecond).toFixed(2)} / ${(auto.maxInOneSecond / c.perSecond).toFixed(2)}`,
      goal: `≤ ${c.perSecond} as the runner let them go`,
      met: capped,
      ...(capped && auto.maxInOneSecond <= c.perSecond
        ? {}
        : {
            note: `the runner let at most ${auto.maxPacedInOneSecond} go in any second, the simulator saw ${auto.maxInOneSecond} arrive in one. The runner lets at most ${c.perSecond} go in any 1,020 ms (limiter.pace(), right before the request is written); the simulator stamps an arrival when its event loop gets to it, and on 2 shared cores its process is at times not scheduled for more than the 20 ms margin, so arrivals bunch (in trials on this machine a 40 ms margin still let the simulator count up to 2 % over the rate).`,
          }),
    },
  ];
}

function maxInSecondRow(c: LatencyCaseResult, where: string): Row {
  const { auto } = c;
  const capped = auto.maxPacedInOneSecond <= c.perSecond;
  return {
    figure: `Most requests in any sliding second at ${where}: as the runner let them go / as the simulator saw them arrive`,
    value: `${auto.maxPacedInOneSecond} / ${auto.maxInOneSecond}`,
    baseline: `${c.perSecond} asked`,
    ratio: `${(auto.maxPacedInOneSecond / c.perSecond).toFixed(2)} / ${(auto.maxInOneSecond / c.perSecond).toFixed(2)}`,
    goal: `≤ ${c.perSecond} as the runner let them go`,
    met: capped,
    ...(capped ? {} : { note: `the runner let ${auto.maxPacedInOneSecond} go in one second, more than the ${c.perSecond} asked.` }),
  };
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? 'never' : `${(ms / 1000).toFixed(2)} s`;
}

/** How soon after the first answer the runner lets 95 % of the asked rate go in one second. */
function rampRows(c: LatencyCaseResult): Row[] {
  const { auto, sized } = c;
  const reached = auto.reached95AfterFirstAnswerMs;
  const met = reached !== undefined && reached <= 2_000;
  return [
    {
      figure: `Time from the first answer until the runner lets 95 % of the asked rate go within one second, at ${fmt(c.latencyMs)} ms ± ${fmt(c.jitterMs)} latency, ${c.perSecond}/s asked, concurrency "auto"`,
      value: `${seconds(reached)} (the first answer came ${seconds(auto.firstAnswerMs)} after the first request)`,
      baseline: sized ? `fixed concurrency sized in advance (${sized.concurrency}): ${seconds(sized.reached95AfterFirstAnswerMs)}` : '–',
      ratio: sized?.reached95AfterFirstAnswerMs !== undefined && reached !== undefined ? `${(reached / sized.reached95AfterFirstAnswerMs).toFixed(2)}` : '–',
      goal: '≤ 2 s',
      met,
      ...(met ? {} : { note: `95 % of ${c.perSecond}/s was ${reached === undefined ? 'never let go in one second' : `let go in one second only ${seconds(reached)} after the first answer`}.` }),
    },
  ];
}

/** A 15-second campaign: its rate over the whole run, and the most in any second. */
function campaignRows(c: LatencyCaseResult): Row[] {
  const { auto, sized } = c;
  const where = `${fmt(c.latencyMs)} ms ± ${fmt(c.jitterMs)} latency, ${c.perSecond}/s asked`;
  const met = auto.ratio >= 0.95 && auto.sent === auto.contacts;
  return [
    {
      figure: `A ${fmt(Math.round(c.contacts / c.perSecond))}-second campaign (${fmt(c.contacts)} contacts) at ${where}, concurrency "auto": the rate over its whole run`,
      value: `${fmt(auto.achievedPerSec, 1)}/s (${fmt(auto.seconds, 1)} s; 95 % ${seconds(auto.reached95AfterFirstAnswerMs)} after the first answer)`,
      baseline: sized ? `fixed concurrency sized in advance (${sized.concurrency}): ${fmt(sized.achievedPerSec, 1)}/s (${(sized.ratio * 100).toFixed(1)} %)` : '–',
      ratio: `${(auto.ratio * 100).toFixed(1)} % of asked${sized ? `; ${(auto.achievedPerSec / sized.achievedPerSec).toFixed(2)} of sized` : ''}`,
      goal: '≥ 95 % of the asked rate over the whole run',
      met,
      ...(met ? {} : { note: `${fmt(auto.achievedPerSec, 1)}/s is ${(auto.ratio * 100).toFixed(1)} % of ${c.perSecond}/s over the whole run (${auto.sent} of ${auto.contacts} sent).` }),
    },
    maxInSecondRow(c, where),
  ];
}

function memoryRow(m: InFlightMemory): Row {
  const met = m.peakRssMb <= 300 && m.peakInFlight >= 1000;
  return {
    figure: `Peak RSS with ${fmt(m.peakInFlight)} requests in flight (latency ${fmt(m.latencyMs)} ms, ${fmt(m.perSecond)}/s asked, "auto", ${fmt(m.contacts)} contacts)`,
    value: `${fmt(m.peakRssMb)} MB`,
    baseline: `${fmt(m.rssBeforeMb)} MB before the run`,
    ratio: '–',
    goal: '≤ 300 MB with 1,000 in flight',
    met,
    ...(met ? {} : { note: `${fmt(m.peakRssMb)} MB with at most ${m.peakInFlight} in flight.` }),
  };
}


function pgRows(p: BenchPgResult): Row[] {
  const rateOk = p.ratio >= 0.9 && p.postgres.sent === p.postgres.contacts;
  const capped = p.postgres.maxPacedInOneSecond <= 1000 && p.file.maxPacedInOneSecond <= 1000;
  const budgetOk = p.budget.granted === p.budget.limit;
  const rows: Row[] = [
    {
      figure: `The same ${fmt(p.postgres.contacts)}-contact job at per_second 1000 (runJob, auto concurrency): PostgreSQL store`,
      value: `${fmt(p.postgres.achievedPerSec, 1)}/s (${fmt(p.postgres.sent)} sent in ${fmt(p.postgres.seconds, 1)} s)`,
      baseline: `file store ${fmt(p.file.achievedPerSec, 1)}/s (${fmt(p.file.seconds, 1)} s)`,
      ratio: p.ratio.toFixed(2),
      goal: '≥ 0.9 of the file store',
      met: rateOk,
      ...(rateOk ? {} : { note: `PostgreSQL ${fmt(p.postgres.achievedPerSec, 1)}/s is ${p.ratio} of the file store's ${fmt(p.file.achievedPerSec, 1)}/s (${p.postgres.sent} of ${p.postgres.contacts} sent).` }),
    },
    {
      figure: 'Most requests in any sliding second at per_second 1000, as the runner let them go (as the simulator saw them arrive): PostgreSQL / file',
      value: `${p.postgres.maxPacedInOneSecond} (${p.postgres.maxInOneSecond}) / ${p.file.maxPacedInOneSecond} (${p.file.maxInOneSecond})`,
      baseline: '1000 asked',
      ratio: (p.postgres.maxPacedInOneSecond / 1000).toFixed(2),
      goal: '≤ 1,000 as the runner let them go',
      met: capped,
      ...(capped && p.postgres.maxInOneSecond <= 1000 && p.file.maxInOneSecond <= 1000
        ? {}
        : { note: `the runner let at most ${p.postgres.maxPacedInOneSecond} (PostgreSQL) and ${p.file.maxPacedInOneSecond} (file) go in any second; the simulator, a process on the same 2 shared cores, saw ${p.postgres.maxInOneSecond} and ${p.file.maxInOneSecond} arrive in one (arrivals bunch when its process is not scheduled: see the rate rows above).` }),
    },
    {
      figure: 'Journal rows written per second during that run (attempt + outcome per contact): PostgreSQL',
      value: `${fmt(p.postgres.journalRowsPerSec)}/s`,
      baseline: `file store ${fmt(p.file.journalRowsPerSec)}/s`,
      ratio: (p.postgres.journalRowsPerSec / p.file.journalRowsPerSec).toFixed(2),
      goal: '(information)',
      met: undefined,
    },
    {
      figure: `Messaging-limit places taken by ${p.budget.holders} holders on ${p.budget.holders} connections racing for a limit of ${fmt(p.budget.limit)} (chunks of ${p.budget.chunk})`,
      value: `${fmt(p.budget.granted)} granted, ${fmt(p.budget.takesPerSec)} takes/s (${fmt(p.budget.placesPerSec)} places/s)`,
      baseline: `limit ${fmt(p.budget.limit)}`,
      ratio: (p.budget.granted / p.budget.limit).toFixed(2),
      goal: 'exactly the limit, never above',
      met: budgetOk,
      ...(budgetOk ? {} : { note: `${p.budget.granted} places granted for a limit of ${p.budget.limit}.` }),
    },
  ];
  const m = p.million;
  if (m) {
    const statusOk = m.status.seconds <= 3;
    const reportOk = m.report.seconds <= 30;
    rows.push(
      {
        figure: `status of a ${fmt(m.contacts)}-contact job on PostgreSQL (fresh process; snapshot left by the last open)`,
        value: `${m.status.seconds} s, ${fmt(m.status.peakRssMb)} MB`,
        baseline: `import ${m.importSeconds} s, first open ${m.openSeconds} s`,
        ratio: '–',
        goal: '≤ 3 s',
        met: statusOk,
        ...(statusOk ? {} : { note: `${m.status.seconds} s: the snapshot and listing are read from the database in parts and inflated, then the contacts counted as on the file store.` }),
      },
      {
        figure: `report of a ${fmt(m.contacts)}-contact job on PostgreSQL (fresh process, CSV)`,
        value: `${m.report.seconds} s, ${fmt(m.report.peakRssMb)} MB`,
        baseline: '–',
        ratio: '–',
        goal: '≤ 30 s',
        met: reportOk,
        ...(reportOk ? {} : { note: `${m.report.seconds} s for the report of ${fmt(m.contacts)} contacts.` }),
      },
    );
  }
  return rows;
}

function howMeasuredPool(): string[] {
  return [
    '',
    "**A pool of numbers.** bench/pool.ts runs the same 12,000-contact template job twice through the use-case `runJob` (the code `outreach run` calls), each against a fresh simulator process with 40 ms ± 10 answers and numbers 10, 14 and 15: once from number 10 alone and once from the pool `[10, 14, 15]`, `rate.per_second` 300 (per number), concurrency auto (one controller per number), the file store, the API client sized as `outreach run` sizes it (`clientSettings`). The rate is the simulator's accepted first messages over the time from the first to the last; the ratio is the pool's rate over the single number's. \"As the run let them go\" counts, per number, the calls of start-whatsapp (the moment the limiter let the request go) in any 1,000 ms; \"as the simulator saw them arrive\" is its own count per number in any second.",
  ];
}

function howMeasuredPg(): string[] {
  return [
    '',
    "**The PostgreSQL store.** bench/pg.ts starts a throwaway cluster with Debian's `initdb` and `pg_ctl` (fsync and synchronous commit on, as a real server runs), then runs the same job twice through the use-case `runJob` (the code `outreach run` calls), each against a fresh simulator process: 20,000 contacts at `per_second: 1000`, concurrency auto, once on `createFileStore` and once on `createPgStore`. The rate is the simulator's count of requests from the first to the last arrival; the journal rows are two per sent contact over the run's wall time. The budget race opens two stores (two pools: two database sessions) and has each take places in chunks of 50 until the store grants none; the figure is what they got together. The million-contact job is the one bench/scale.ts synthesises (its journal and listing), moved into PostgreSQL with `store import`, opened once through the store (the whole journal folded, the snapshot written, as a run leaves it), then `status` and `report` each run in a fresh Node process.",
  ];
}

/** A pool of 3 numbers at 300/s each against one number at 300/s, same list, same run (bench/pool.ts). */
function poolRows(p: BenchPoolResult): Row[] {
  return [
    {
      figure: 'First messages/s from a pool of 3 numbers at 300/s each (runJob, 40 ms answers)',
      value: `${fmt(p.pool.rate)}/s`,
      baseline: `${fmt(p.single.rate)}/s from one number`,
      ratio: `${p.ratio.toFixed(2)}×`,
      goal: '≥ 2.8×',
      met: p.ratio >= 2.8,
      ...(p.ratio < 2.8 && { note: `the pool reached ${p.ratio.toFixed(2)}× one number's rate` }),
    },
    {
      figure: 'Most first messages from one number of the pool in any second: as the run let them go / as the simulator saw them arrive',
      value: `${p.pool.maxPerNumberSecondLeaving} / ${p.pool.maxPerNumberSecond}`,
      baseline: `rate.per_second ${p.pool.perSecond}`,
      ratio: '',
      goal: `≤ ${p.pool.perSecond} as the run let them go`,
      met: p.pool.maxPerNumberSecondLeaving <= p.pool.perSecond,
      ...(p.pool.maxPerNumberSecond > p.pool.perSecond && {
        note: `the run let at most ${p.pool.maxPerNumberSecondLeaving} go from one number in any second; the simulator, a process on the same 2 shared cores, saw ${p.pool.maxPerNumberSecond} arrive in one (arrivals bunch when a process is not scheduled: see the rate rows above)`,
      }),
    },
  ];
}

/**
 * Issue 36: a million-contact job continued from an older version's journal, then status, report and
 * a run after 1,000 rows were appended (bench/nightly.ts), each beside its baseline of the same run.
 */
function nightlyRows(r: BenchNightlyResult): Row[] {
  const n = fmt(r.contacts);
  // status: ≤ 0.5 s and ≤ 150 MB, or 1.5× a fresh Node reading the journal's bytes once when that is more.
  const slowest = r.status.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const statusSeconds = Math.max(0.5, 1.5 * r.readJournal.seconds);
  const statusMb = Math.max(150, 1.5 * r.readJournal.peakRssMb);
  const statusMet = r.status.every((s) => s.seconds <= statusSeconds && s.peakRssMb <= statusMb);
  const reportRatio = r.report.seconds / r.writeRows.seconds;
  const reportMet = reportRatio <= 2 && r.report.peakRssMb <= 300;
  const appendedMet = r.appendedRun.seconds <= 3;
  const fromOldMet = r.fromOldJournal.seconds <= 15;
  const grown = /"new_rows":(\d+)/.exec(r.appendedRun.listRead ?? '')?.[1];
  return [
    {
      figure: `\`outreach run\` after ${fmt(r.appended)} rows were appended to the list of a ${n}-contact job (snapshot and listing left by the last run): time to the first message`,
      value: `${fmt(r.appendedRun.seconds, 2)} s${grown === undefined ? ' (the list was read whole)' : ` (${fmt(Number(grown))} new rows read)`}`,
      baseline: `the same run with the list unchanged: ${fmt(r.unchangedRun.seconds, 2)} s${r.unchangedRun.toStart ? ' to its start of sending (nothing left to send)' : ''}`,
      ratio: (r.appendedRun.seconds / r.unchangedRun.seconds).toFixed(2),
      goal: '≤ 3 s',
      met: appendedMet,
      ...(appendedMet ? {} : { note: `${r.appendedRun.seconds} s to the first message after the append; the run's log said: ${r.appendedRun.listRead ?? 'nothing of the list'}.` }),
    },
    {
      figure: `\`status --json\` of that job on a fresh process, twice (journal ${fmt(r.journalMb)} MB from an older version, continued by \`run\`)`,
      value: r.status.map((s) => `${fmt(s.seconds, 2)} s, ${fmt(s.peakRssMb)} MB`).join('; '),
      baseline: `a fresh Node reading the journal's bytes once: ${fmt(r.readJournal.seconds, 2)} s, ${fmt(r.readJournal.peakRssMb)} MB`,
      ratio: `${(slowest.seconds / r.readJournal.seconds).toFixed(1)}×`,
      goal: `≤ 0.5 s and ≤ 150 MB, or 1.5× the baseline when more (today ≤ ${fmt(statusSeconds, 2)} s and ≤ ${fmt(statusMb)} MB)`,
      met: statusMet,
      ...(statusMet ? {} : { note: `the slower status took ${slowest.seconds} s and ${slowest.peakRssMb} MB, against ${fmt(statusSeconds, 2)} s and ${fmt(statusMb)} MB.` }),
    },
    {
      figure: `\`report --out F\` of that job on a fresh process (${fmt(r.reportMb, 1)} MB; the quicker of two rounds)`,
      value: `${fmt(r.report.seconds, 2)} s, ${fmt(r.report.peakRssMb)} MB`,
      baseline: `streaming as many bytes to a file: ${fmt(r.writeRows.seconds, 2)} s, ${fmt(r.writeRows.peakRssMb)} MB`,
      ratio: `${reportRatio.toFixed(2)}×`,
      goal: '≤ 2× and ≤ 300 MB',
      met: reportMet,
      ...(reportMet ? {} : { note: `${reportRatio.toFixed(2)}× the streaming and ${r.report.peakRssMb} MB.` }),
    },
    {
      figure: `\`outreach run\` continuing that job from the older version's journal (no snapshot, no listing; ${fmt(r.pending)} contacts pending at the end of the list): time to the first message`,
      value: `${fmt(r.fromOldJournal.seconds, 1)} s (ended after ${fmt(r.fromOldJournal.endSeconds ?? 0, 1)} s)`,
      baseline: 'the whole journal folded, the list read up to its pending rows',
      ratio: '–',
      goal: '≤ 15 s',
      met: fromOldMet,
      ...(fromOldMet ? {} : { note: `${r.fromOldJournal.seconds} s: with no listing the run reads every settled row of the list before the first pending one (here they are all at its end).` }),
    },
  ];
}

function howMeasuredNightly(r: BenchNightlyResult | undefined): string[] {
  const n = r ? fmt(r.contacts) : '1,000,000';
  return [
    '',
    `**A million-contact job as a nightly import meets it.** bench/nightly.ts writes a ${n}-row CSV list and the journal an older version leaves (bench/scale.ts's generator: no snapshot, no listing), with the last ${r ? fmt(r.pending) : '10,000'} contacts pending. The built CLI (\`node dist/src/cli/main.js\`), each step in a fresh process started after \`sync\`, against a simulator process: \`run\` continues the job to its end (the first-message row; it leaves the snapshot and the listing, with each file's size, time and SHA-256); \`status --json\` twice, beside a fresh Node reading the journal's bytes once in 1 MiB pieces (bench/lib/read-bytes.ts); \`report --out F\` twice, each beside the report's baseline of bench/scale.ts (as many bytes streamed to a file through the atomic writer) in a fresh process, the quicker of each kept; \`run\` again with the list unchanged (nothing is left to send: the time to its \`run_started\` log line, the list picked from its listing and sending about to start, is the baseline); then ${r ? fmt(r.appended) : '1,000'} rows appended to the list as a nightly import does, and \`run\` again: the time from spawning it to the simulator storing its first message. Wall time from spawn to exit; memory = the process's maximum RSS (\`process.resourceUsage().maxRSS\` at its exit, bench/lib/rss-at-exit.ts preloaded).`,
  ];
}

/** Issue 36: the PostgreSQL backend's journal rows per second with 1, 4 and 16 writers, beside pgbench -N (bench/pg-capacity.ts). */
function capacityRows(r: BenchPgCapacityResult): Row[] {
  return [
    ...r.rounds.map(
      (c): Row => ({
        figure: `Journal rows/s the PostgreSQL store sustains with ${c.writers} writer${c.writers === 1 ? '' : 's'} (each its own job and store; attempt then outcome, each durable): one send in flight each (${r.inFlight} in flight each)`,
        value: `${fmt(c.rowsPerSec)}/s (${fmt(c.rowsPerSecInFlight)}/s)`,
        baseline: `pgbench -N -c ${c.writers}: ${fmt(c.pgbenchTps)} tps`,
        ratio: c.ratio.toFixed(2),
        goal: '(information)',
        met: undefined,
      }),
    ),
    {
      figure: 'Numbers one database carries at that rate (2 journal rows a first message)',
      value: `${fmt(r.numbersAt80)} at 80/s, ${fmt(r.numbersAt1000)} at 1,000/s`,
      baseline: `${fmt(r.bestRowsPerSec)} rows/s at best`,
      ratio: '–',
      goal: '(information)',
      met: undefined,
    },
  ];
}

function howMeasuredCapacity(r: BenchPgCapacityResult | undefined): string[] {
  return [
    '',
    `**The database store's capacity.** bench/pg-capacity.ts starts a throwaway cluster (${r ? `PostgreSQL ${r.postgres}, ` : ''}fsync and synchronous commit on) and initialises pgbench's tables (\`pgbench -i -s ${r?.scale ?? 16}\`). For 1, 4 and 16 writers: each writer is a job of its own opened through a store of its own (\`createPgStore\`, \`openJob\`: its lease, its fenced, group-committed journal writer), as the run of one number in its own process is, and writes sends for ${r?.seconds ?? 10} s: an \`attempt\` event, awaited (durable), then its \`sent\` event, awaited; once with one send in flight per writer, then with ${r?.inFlight ?? 32} (a run's way: its journal writes the events queued meanwhile in one statement). The figure is journal rows committed per second, all writers together. The baseline is \`pgbench -N -c W -j min(W, 2) -T ${r?.seconds ?? 10}\` (simple update: one UPDATE, one SELECT, one INSERT per transaction) against the same server right after; the ratio is one-in-flight rows per second over pgbench's transactions per second (one commit each). The numbers carried are the best rows per second with sends in flight divided by 2 rows per first message and the number's rate; all writers run in one Node process on the same 2 cores as the server.`,
  ];
}

function unavailable(figure: string, error: string): Row {
  const first = error.split('\n')[0] ?? error;
  return { figure, value: 'not available', baseline: '–', ratio: '–', goal: '–', met: false, note: `no figures: ${first}` };
}

function isLoadFigures(v: unknown): v is LoadFigures {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return ['loaderRowsPerSec', 'baselineRowsPerSec', 'ratio', 'peakRssMb', 'rows'].every((k) => typeof o[k] === 'number');
}

// ---- rendering ------------------------------------------------------------------------------

function renderTable(rows: readonly Row[]): string {
  const met = (m: boolean | undefined) => (m === undefined ? '–' : m ? 'yes' : '**NO**');
  const cells = rows.map((r) => [r.figure, r.value, r.baseline, r.ratio, r.goal, met(r.met)]);
  const lines = [
    '| figure | this machine | baseline (same run) | ratio | goal | met? |',
    '|---|---:|---:|---:|---|:---:|',
    ...cells.map((c) => `| ${c.map((s) => s.replaceAll('|', '\\|')).join(' | ')} |`),
  ];
  return lines.join('\n');
}

function machineLines(date: Date, seconds: number, before: number[], after: number[]): string[] {
  const cpus = os.cpus();
  const la = (l: number[]) => l.map((n) => n.toFixed(2)).join(' / ');
  return [
    `CPU: ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} cores`,
    `Memory: ${fmt(os.totalmem() / 2 ** 30, 1)} GiB`,
    `Node ${process.version} on ${os.platform()} ${os.release()} (${os.arch()})`,
    `Date: ${date.toISOString()}; the benches took ${seconds.toFixed(0)} s`,
    `Load average (1 / 5 / 15 min) before: ${la(before)}, after: ${la(after)} (a shared machine: anything above ~0.2 before means a neighbour was busy)`,
  ];
}

function howMeasured(run: BenchRunResult | undefined, load: LoadFigures | undefined): string[] {
  const t = run?.throughput;
  const r = run?.rate;
  const out: string[] = [];
  out.push(
    '**Process layout (executor figures).** Each executor measurement and each baseline gets a fresh simulator (`startSimulator({ logRequests: false })` for throughput) in a child process of its own (bench/lib/sim-child.ts, started with `fork`), so the client side and the server each have a core of the two and neither inherits the other\'s clients or JIT state. The client side runs in the bench process: the executor with its undici pool and checkpoint, or autocannon through its programmatic API (no workers). Both sides are measured the same way: same route, same simulator build and options, 64 sockets, after a warm-up on the same fresh simulator. The benches run in a fresh Node process each (bench/lib/isolated.ts), so the loader\'s heap cannot inflate the executor\'s RSS.',
    '',
  );
  out.push(
    `**Executor throughput.** \`execute\` with \`unlimitedLimiter()\`, concurrency ${t?.concurrency ?? 64}, \`createApiClient({ connections: ${t?.concurrency ?? 64} })\`, a real checkpoint in a temporary folder (\`openCheckpoint\`, \`record\` = group-committed write + fdatasync, 2 events per contact), ${fmt(t?.contacts ?? 20_000)} contacts with distinct valid E.164 phones (+55 11 9…) streamed from an async generator, a template job parsed by \`parseJob\`. Figure = contacts sent ÷ seconds from the call of \`execute\` to its end (the last fsync included), after a warm-up of 1,000 other contacts. Every contact must end \`sent\` in the checkpoint, and the simulator must have stored one message per contact. ${t?.rounds ?? 3} rounds alternate with the baseline's (executor first, then autocannon first, …); the best of each side is kept, because other work on a shared machine only ever slows a round down.`,
    '',
    `**Baseline: autocannon.** autocannon 8 (programmatic, in the bench process), ${t?.autocannon.connections ?? 64} connections, pipelining 1, ${t?.autocannon.seconds ?? 5} s per round after a 1 s warm-up, POST /chat/conversations/start-whatsapp with the bearer token and a valid template body; \`setupRequest\` gives each request a new phone, so every request creates a client, a conversation and a message, as the executor's do (no conversation reuse). Figure = 2xx answers ÷ autocannon's duration; the simulator's own count is checked against it. Ratio = executor contacts/s ÷ autocannon requests/s (best ÷ best).`,
    '',
    `**CPU per contact.** \`process.cpuUsage()\` (user + system) of the bench process and of the simulator process over the best round, divided by contacts (or requests). It does not depend on how busy the machine is, so it is the steadier comparison on a shared machine. The goal compares the bench process alone: the executor's µs per contact ÷ autocannon's µs per request in the same run, at most ${CPU_GOAL}× (issue 23 asked for half of what it was when filed, 84 µs against autocannon's 24 µs, 3.5×; a ratio to the same run's baseline, since the machine's speed moves both).`,
    '',
    `**Peak RSS and journal.** RSS of the bench process sampled every 25 ms during the first executor round (warm-up included), which runs in a fresh process before any autocannon round${t ? ` (over all rounds, with autocannon's garbage also in the process: ${fmt(t.peakRssAllRoundsMb)} MB; the simulator process peaked at ${fmt(t.simPeakRssMb)} MB)` : ''}; the journal is the best round's checkpoint.jsonl (size on disk, events, and write + fsync rounds from \`checkpoint.stats()\`).`,
    '',
    `**Rate accuracy.** A fresh simulator process with its request log on, \`createRateLimiter({ perSecond: ${r?.asked ?? 50} })\`, concurrency ${r?.concurrency ?? 8}, ${fmt(r?.contacts ?? 1000)} contacts (one start-whatsapp each, checkpoint as above). Achieved rate = (requests − 1) ÷ (arrival wall time of the last request − that of the first), both as logged by the simulator (\`Date.now()\` on arrival, \`state.requests[].wall\`): n requests make n − 1 intervals. Baseline = the rate asked; ratio = achieved ÷ asked. "Most in any sliding second" is the simulator's \`state.maxRequestsInWindow(1000)\`: the most arrivals in any half-open window [t, t + 1000 ms).`,
    '',
  );
  out.push(
    load
      ? `**Loader.** bench/load.ts's \`benchLoad()\` with its defaults (${fmt(load.rows)} generated rows, mixed phone formats, default country BR): the loader end to end versus bare csv-parse streaming + \`parsePhoneNumberFromString(phone, 'BR')?.isValid()\` per row, in the same process, best of its rounds; peak RSS sampled while the loader ran.`
      : '**Loader.** bench/load.ts gave no figures in this run (see above).',
    '',
  );
  return out;
}

function scaleRows(r: BenchScaleResult): Row[] {
  const n = fmt(r.contacts);
  const statusMet = r.status.seconds <= 0.5 && r.status.peakRssMb <= 150;
  const reportRatio = r.writeRows.seconds > 0 ? r.report.seconds / r.writeRows.seconds : Number.POSITIVE_INFINITY;
  const reportMet = reportRatio <= 2 && r.report.peakRssMb <= 300;
  const firstMet = r.firstRequestSeconds <= 3;
  const firstNoSnapshotMet = r.firstRequestNoSnapshotSeconds <= 15;
  const baseline = `before: ${fmt(r.baseline.seconds, 1)} s, ${fmt(r.baseline.peakRssMb)} MB`;
  return [
    {
      figure: `\`status\` of a ${n}-contact job (journal ${fmt(r.journalMb)} MB, snapshot ${fmt(r.snapshotMb)} MB, list of ${n} rows)`,
      value: `${fmt(r.status.seconds, 2)} s, ${fmt(r.status.peakRssMb)} MB`,
      baseline,
      ratio: `${(r.baseline.seconds / r.status.seconds).toFixed(1)}× faster, ${(r.baseline.peakRssMb / r.status.peakRssMb).toFixed(1)}× less memory`,
      goal: '≤ 0.5 s and ≤ 150 MB',
      met: statusMet,
      ...(statusMet ? {} : { note: `${r.status.seconds} s and ${r.status.peakRssMb} MB: the counts come from the counters the snapshot keeps, but the snapshot's columns (about 100 bytes a contact) and the listing are still read whole.` }),
    },
    {
      figure: `\`report\` of the same job (one CSV row per contact, ${fmt(r.reportMb)} MB, streamed to the file)`,
      value: `${fmt(r.report.seconds, 2)} s, ${fmt(r.report.peakRssMb)} MB`,
      baseline: `${fmt(r.contacts + 1)} rows of the same length streamed to a file: ${fmt(r.writeRows.seconds, 2)} s, ${fmt(r.writeRows.peakRssMb)} MB`,
      ratio: `${reportRatio.toFixed(1)}× the time of writing the file`,
      goal: '≤ 2× and ≤ 300 MB',
      met: reportMet,
      ...(reportMet ? {} : { note: `${reportRatio.toFixed(1)}× and ${r.report.peakRssMb} MB: the rows are written from the state's columns straight into byte buffers (no state nor row object per contact); the time beyond the file's writing is reading the snapshot and the listing and filling in each row's own cells (numbers, ISO times, the list's texts) in JavaScript.` }),
    },
    {
      figure: `\`outreach run\` continuing it with the snapshot and the listing the last run left (the first ${fmt(r.contacts - r.pending)} contacts settled, ${fmt(r.pending)} pending at the end of the list): time to the first message`,
      value: `${fmt(r.firstRequestSeconds, 1)} s`,
      baseline: `${n} rows read by the loader`,
      ratio: '–',
      goal: '≤ 3 s',
      met: firstMet,
      ...(firstMet ? {} : { note: `${r.firstRequestSeconds} s: the run still reads and checks every settled row of the list before the first pending one; it does not yet start from the listing.` }),
    },
    {
      figure: 'The same with the journal alone (its snapshot removed: the whole journal folded before the first send)',
      value: `${fmt(r.firstRequestNoSnapshotSeconds, 1)} s`,
      baseline: `opening it through the store: ${fmt(r.openWithoutSnapshot.seconds, 1)} s`,
      ratio: '–',
      goal: '≤ 15 s',
      met: firstNoSnapshotMet,
      ...(firstNoSnapshotMet ? {} : { note: `${r.firstRequestNoSnapshotSeconds} s: folding the whole journal (${fmt(r.journalMb)} MB of JSON lines) and then reading the list whole.` }),
    },
    {
      figure: `Opening that job with no snapshot at all (the whole journal folded, once, writing the snapshot)`,
      value: `${fmt(r.openWithoutSnapshot.seconds, 1)} s, ${fmt(r.openWithoutSnapshot.peakRssMb)} MB`,
      baseline,
      ratio: '–',
      goal: '(information)',
      met: undefined,
    },
  ];
}

function howMeasuredScale(r: BenchScaleResult | undefined): string[] {
  return [
    '',
    `**A million-contact job.** bench/scale.ts writes a ${r ? fmt(r.contacts) : '1,000,000'}-row CSV list and the journal a run leaves after its first ${r ? fmt(r.contacts - r.pending) : '990,000'} contacts (header, then an attempt and an outcome per contact: 94 % sent with numeric ids, 2 % failed 502, 1 % in doubt, 2 % skipped, 1 % sent with a failed tag step; \`track\` has read 40 % of them delivered, half of those read too), in the journal's own JSON-lines format. It then opens the job once through the store (\`createFileStore().openJob\`: the whole journal folded, the snapshot written: the "no snapshot" row) and saves the listing a run keeps of a list it read whole (\`saveListing\`, with the source \`listSource\` computes; each contact's file, line, name and phone as written). \`status\` (\`jobStatus\`) and \`report\` (\`jobReport\`, CSV) each run in a fresh Node process; the figure is the wall time of the call and the process's maximum RSS (\`process.resourceUsage().maxRSS\`). The report's baseline, in a fresh process too, streams as many rows as the report has, each of the report's average length, to a file in megabyte pieces through the same atomic writer (temp file, fsync, rename). The report and its baseline alternate, two rounds each, and the quicker round of each is kept (other work on a shared machine only slows a round down). Every timed step starts after \`sync\`, so that its fsync does not wait for the disk to write back the hundreds of megabytes the steps before it left in the page cache. The baseline, also in a fresh process, is status as it was computed before: \`readJournal\` (every event in an array), \`replay\` into a Map of state objects, the whole list read by the loader, a report row object per contact, \`summarise\`. The continuing run is the built CLI (\`node dist/src/cli/main.js run job.json\`) against a simulator process; the figure is the time from spawning it to the simulator storing its first message (node start-up, preflight, lock, snapshot, and the list's ${r ? fmt(r.contacts - r.pending) : '990,000'} settled rows read and skipped included); then the snapshot is removed and the same is timed again with the journal alone (the journal then also holds what the first of these runs recorded before it was stopped), twice, the snapshot removed before each, the quicker kept.`,
  ];
}

function howMeasuredLatency(l: BenchLatencyResult | undefined): string[] {
  const c = l?.cases ?? [];
  return [
    `**Rate at real latency.** bench/latency.ts: for each case a fresh simulator process with latency ${c.map((x) => `${x.latencyMs} ms ± ${x.jitterMs}`).join(' and ') || '500 ms ± 100 and 2,000 ms ± 400'} (\`faults.latencyMs\`, \`latencyJitterMs\`, seeded), the request log on; \`execute\` as \`outreach run\` drives it with a template job whose \`rate\` gives only \`per_second\` (${c.map((x) => x.perSecond).join(' and ') || '500 and 200'}), so every other setting is the default: concurrency "auto" (\`runConcurrency\`: the adaptive controller, starting at 8 requests in flight), \`createApiClient(clientSettings(job))\`, a real fsync'd checkpoint, \`createRateLimiter({ perSecond })\`. The baseline is the same with \`rate.concurrency: 64\` (the highest the job allowed before), on fewer contacts because it is slower. "After the first 5 s" = the mean of the simulator's per-second counts (\`requestsPerSecond\`) from the sixth second to the last whole one, while the adaptive limit has grown; "whole run" = (requests − 1) ÷ (last arrival − first arrival). "Most in any sliding second": as the runner let them go = the most \`limiter.pace()\` returns (the request is written right after it) in any 1,000 ms, recorded by bench/lib/send-all.ts; as the simulator saw them = \`maxRequestsInWindow(1000)\` over every arrival.`,
    `**How soon the rate is reached, and a 15-second campaign.** In the same runs, bench/lib/send-all.ts notes when the runner let each request go (out of \`limiter.pace()\`) and when the first answer came back (the controller's first sample). "Time from the first answer" = the earliest departure at or after the first answer whose trailing 1,000 ms holds at least 95 % of the asked rate, minus the time of the first answer (a whole second at the rate is needed, so 1 s is the least possible). Its baseline is the same case at a fixed concurrency sized in advance from the latency the simulator is set to (rate × (latency + jitter) × 1.3, as if the run had known it before its first answer), on fewer contacts. The campaign: latency 500 ms ± 100, 300/s asked, 4,500 contacts (15 s at the rate), "auto", the rate over the whole run as the simulator saw it ((requests − 1) ÷ (last arrival − first arrival)); baseline: the same campaign at the concurrency sized in advance.`,
    '',
    `**1,000 requests in flight.** The same, latency 1,000 ms ± 100 and 1,000/s asked with the default settings: the controller's target (1,000 × p90 × 1.3) is above \`rate.max_concurrency\`, so the limit sits at its ceiling of 1,000. Peak RSS of the bench process (executor, undici pool of up to 1,000 sockets, checkpoint) sampled every 25 ms; "in flight" is the executor's own count of requests between leaving and their answer (\`peakInFlight\`).`,
    '',
  ];
}

await main();
