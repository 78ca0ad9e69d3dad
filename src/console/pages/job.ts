/** `/jobs/<key>`: one job's progress and ETA, rate, contacts, funnel, failures, deferred, limit, pool, experiment, and its recipients. */
import type { JobFigures } from '../../app/index.js';
import { bar } from '../../report/html/charts.js';
import { duration, esc, fixed, jobPath, num, pct, rate, time, type Shown } from './format.js';
import { contactKpis, phaseLine, rateHint, rateLine, roomLine, sourceNote } from './job-parts.js';
import { page } from './layout.js';
import { updatedLine } from './overview.js';

/** The live parts of the job's page by name, each its HTML: the same on the page and in its JSON. */
export function jobSections(f: JobFigures, shown: Shown, host: string): Record<string, string> {
  return {
    state: state(f, shown, host),
    progress: progress(f),
    contacts: `<section id="contacts"><h2>Contacts by status</h2>${contactKpis(f)}</section>`,
    funnel: funnel(f),
    failures: failures(f),
    deferred: deferred(f, shown),
    limit: `<section id="limit"><h2>Messaging limit</h2><p>${roomLine(f.status.messaging, shown)}</p></section>`,
    numbers: numbers(f, shown),
    experiment: experiment(f, shown),
  };
}

export interface JobPageExtra {
  /** This machine's name: a run on it can be stopped from here. */
  host: string;
  /** The recipients part (not live: a person reads it, filters it, pages it). */
  recipients: string;
  /** What the last stop did, as a sentence. */
  notice?: string;
  signOut?: { csrf: string };
}

export function jobPage(f: JobFigures, shown: Shown, extra: JobPageExtra): string {
  const s = jobSections(f, shown, extra.host);
  const live = Object.entries(s)
    .map(([name, html]) => `<div data-section="${name}">${html}</div>`)
    .join('\n');
  return page({
    title: `${f.key}: outreach console`,
    header: `<h1>${esc(f.key)}${f.company !== undefined ? ` <span class="hint">company ${esc(String(f.company))}</span>` : ''}</h1>`,
    body: `${extra.notice !== undefined ? `<p class="note ok" id="notice">${esc(extra.notice)}</p>` : ''}${live}\n${extra.recipients}`,
    live: `/api${jobPath(f.key)}`,
    updated: updatedLine(shown),
    ...(extra.signOut && { signOut: extra.signOut }),
  });
}

function state(f: JobFigures, shown: Shown, host: string): string {
  const from = f.startedFrom ? `<p class="hint">started from ${f.startedFrom.host !== undefined ? `host ${esc(f.startedFrom.host)}: ` : ''}<code>${esc(f.startedFrom.file ?? 'a job file this version does not know')}</code></p>` : '';
  const stop =
    f.phase.kind === 'running'
      ? f.phase.runner.host === host
        ? `<div class="actions"><a class="button danger" id="stop" href="${esc(jobPath(f.key, '/stop'))}">Stop this run…</a></div>`
        : `<p class="hint">It runs on host ${esc(f.phase.runner.host)}, not this one (${esc(host)}): stop it there with <code>outreach stop</code>.</p>`
      : '';
  return `<section id="state"><h2>State</h2>${phaseLine(f, shown)}${stop}${from}${sourceNote(f)}</section>`;
}

function progress(f: JobFigures): string {
  const { done, total, eta } = f.progress;
  const etaLine =
    eta !== undefined
      ? `<div><span class="k">ETA</span> <span data-metric="eta">${duration(eta.ms)}</span> ${eta.by === 'measured' ? 'at the rate measured' : 'at the rate asked (not measured yet)'}</div>`
      : `<div><span class="k">ETA</span> <span data-metric="eta">${f.phase.kind === 'running' ? 'not known yet' : 'not sending'}</span></div>`;
  const hint = rateHint(f);
  return `<section id="progress"><h2>Progress</h2>
<progress data-metric="progress" value="${done}" max="${Math.max(1, total)}">${pct(done, total)}</progress>
<div class="facts">
<div><span class="k">handled</span> <b data-metric="done">${num(done)}</b> of ${num(total)} (${pct(done, total)})</div>
${etaLine}
<div><span class="k">rate</span> ${rateLine(f)}</div>
</div>${hint ? `<p class="hint">${hint}</p>` : ''}</section>`;
}

function funnel(f: JobFigures): string {
  const n = f.status.funnel;
  const untracked = n.sent - n.tracked;
  const hint = untracked > 0 ? `${num(untracked)} sent messages were never read back: <code>outreach track</code> reads delivery and reads.` : 'Every sent message was read back by <code>outreach track</code>.';
  const stage = (key: string, name: string, value: number) =>
    `<div class="stage ${key}"><span class="name">${esc(name)}</span>${bar(value, n.sent, key)}<span class="count" data-funnel="${key}">${num(value)}</span><span class="share">${pct(value, n.sent)}</span></div>`;
  return `<section id="funnel"><h2>Funnel</h2><div class="funnel">
${stage('sent', 'sent', n.sent)}
${stage('delivered', 'delivered', n.delivered)}
${stage('read', 'read', n.read)}
${stage('replied', 'replied', n.replied)}
${stage('failed', 'not delivered', n.failed)}
</div><p class="hint">Shares are of the sent. ${hint}</p></section>`;
}

function failures(f: JobFigures): string {
  const atSend = f.status.summary.failureClasses.map(
    (c) => `<li><div class="head"><span class="count" data-failure="send:${esc(c.class)}">${num(c.count)}</span><span class="tag send">at send</span><code>${esc(c.class)}</code></div><div class="example">${esc(c.example)}</div></li>`,
  );
  const atDelivery = f.status.funnel.failures.map(
    (c) =>
      `<li><div class="head"><span class="count" data-failure="delivery:${esc(String(c.code ?? 'none'))}">${num(c.count)}</span><span class="tag delivery">at delivery</span><code>${esc(c.class)}</code><span class="code">${c.code ?? 'no code'}</span></div><div>${esc(c.label)}</div><div class="example">${esc(c.example)}</div></li>`,
  );
  const items = [...atSend, ...atDelivery];
  if (items.length === 0) return `<section id="failures"><h2>Failures by class</h2><p class="empty">No failures.</p></section>`;
  return `<section id="failures"><h2>Failures by class, with an example</h2><ul class="items">${items.join('\n')}</ul><p class="hint">Failed and in-doubt contacts at send; messages the provider could not deliver, as <code>outreach track</code> read them.</p></section>`;
}

function deferred(f: JobFigures, shown: Shown): string {
  const groups = f.status.deferred;
  if (groups.length === 0) return '';
  const rows = groups
    .map((g) => `<tr><td><code>${esc(g.reason)}</code></td><td class="n" data-deferred="${esc(g.reason)}">${num(g.count)}</td><td>${time(g.notBefore, shown)}${g.zone !== undefined ? ` <span class="hint">(${esc(g.zone)})</span>` : ''}</td></tr>`)
    .join('');
  return `<section id="deferred"><h2>Deferred, by reason</h2><div class="scroll"><table><thead><tr><th>reason</th><th>contacts</th><th>the first may go from</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

function numbers(f: JobFigures, shown: Shown): string {
  const pool = f.status.numbers;
  if (pool === undefined) return '';
  const rows = pool
    .map(
      (n) =>
        `<tr data-number="${n.channelId}"><td>${n.channelId}</td><td class="n">${num(n.sent)}</td><td class="n">${num(n.failed)}</td><td class="n">${n.reachedPerSecond !== undefined ? rate(n.reachedPerSecond) : '—'}</td><td>${
          n.drained ? `drained ${time(n.drained.at, shown)}: ${esc(String(n.drained.code))} ${esc(n.drained.error)}` : 'healthy'
        }</td></tr>`,
    )
    .join('');
  return `<section id="numbers"><h2>Numbers of the pool</h2><div class="scroll"><table><thead><tr><th>number</th><th>sent</th><th>failed</th><th>reached a second (last run)</th><th>health (last run)</th></tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

function experiment(f: JobFigures, shown: Shown): string {
  const e = f.status.experiment;
  if (e === undefined) return '';
  const rows = e.arms
    .map((a) => `<tr data-arm="${esc(a.arm)}"><td><code>${esc(a.arm)}</code></td><td class="n">${num(a.sent)}</td><td class="n">${num(a.delivered)}</td><td class="n">${num(a.read)}</td><td class="n">${num(a.replied)}</td><td class="n">${pct(a.rate, 1)} (${pct(a.low, 1)}–${pct(a.high, 1)})</td></tr>`)
    .join('');
  const d = e.decision;
  const decision = d
    ? `<p data-metric="winner">decided ${time(d.decided_at, shown)}: <b>${esc(d.winner)}</b> goes to the rest (${d.by === 'significant' ? `significant, p = ${fixed(d.p_value, 4)}` : 'not significant: the fallback'})</p>`
    : `<p>not decided yet${e.decideAt !== undefined ? `; due ${time(e.decideAt, shown)}` : '; due once the test has sent'}</p>`;
  return `<section id="experiment"><h2>Experiment (${esc(e.metric)}, ${pct(e.testShare, 1)} in the test)</h2><div class="scroll"><table><thead><tr><th>arm</th><th>sent</th><th>delivered</th><th>read</th><th>replied</th><th>${esc(e.metric)} rate (95 %)</th></tr></thead><tbody>${rows}</tbody></table></div>${decision}<p class="hint">The rest: ${num(e.rest.sent)} sent the winner, ${num(e.rest.waiting)} waiting for the decision.</p></section>`;
}
