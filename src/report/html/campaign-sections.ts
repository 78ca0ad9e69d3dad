import { esc, num, pct, share } from './escape.js';
import type { HtmlReportData } from './types.js';

/** The experiment's arms and decision, and the jobs following this one up; empty when the job has neither. Pure. */
export function campaignSections(d: HtmlReportData): string {
  return [numbers(d), experiment(d), followUps(d)].filter((s) => s !== '').join('\n');
}

function numbers(d: HtmlReportData): string {
  const list = d.numbers;
  if (list === undefined || list.length === 0) return '';
  const rows = list
    .map(
      (n) =>
        `<tr><td><code>${n.channelId}</code></td><td data-number="${n.channelId}" data-metric="sent">${num(n.sent)}</td><td data-number="${n.channelId}" data-metric="failed">${num(n.failed)}</td>` +
        `<td data-number="${n.channelId}" data-metric="rate">${n.reachedPerSecond !== undefined ? `${n.reachedPerSecond}/s` : ''}</td>` +
        `<td data-number="${n.channelId}" data-metric="drained">${n.drained ? `${esc(n.drained.at)} (${n.drained.code}): ${esc(n.drained.error)}` : ''}</td></tr>`,
    )
    .join('\n');
  return `<section id="numbers"><h2>Numbers of the pool</h2>
<table><thead><tr><th>number</th><th>sent</th><th>failed</th><th>rate reached in the last run</th><th>drained in the last run</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}

function experiment(d: HtmlReportData): string {
  const e = d.experiment;
  if (e === undefined) return '';
  const rows = e.arms
    .map(
      (a) =>
        `<tr><td><code>${esc(a.arm)}</code></td><td data-arm="${esc(a.arm)}" data-metric="sent">${num(a.sent)}</td><td>${num(a.delivered)}</td><td>${num(a.read)}</td><td>${num(a.replied)}</td>` +
        `<td data-arm="${esc(a.arm)}" data-metric="rate">${share(a.rate)}</td><td>${share(a.low)}–${share(a.high)}</td></tr>`,
    )
    .join('\n');
  const decision = e.decision
    ? `<p>Decided ${esc(e.decision.decidedAt)}: arm <code data-metric="winner">${esc(e.decision.winner)}</code> (${e.decision.by === 'significant' ? 'better at the confidence asked' : 'no arm better: the fallback'}; p = ${esc(e.decision.pValue.toPrecision(2))}); the rest of the list got it.</p>`
    : `<p>Not decided yet: <span data-metric="rest_waiting">${num(e.restWaiting)}</span> contacts wait for the winner.</p>`;
  return `<section id="experiment"><h2>Experiment: arms compared on ${esc(e.metric)}</h2>
<table><thead><tr><th>arm</th><th>sent</th><th>delivered</th><th>read</th><th>replied</th><th>${esc(e.metric)}</th><th>95% interval</th></tr></thead><tbody>
${rows}
</tbody></table>
${decision}</section>`;
}

function followUps(d: HtmlReportData): string {
  const list = d.followUps;
  if (list === undefined || list.length === 0) return '';
  const rows = list
    .map(
      (f) =>
        `<tr><td><a href="${esc(f.page)}">${esc(f.job)}</a></td><td>${esc(f.who)}</td><td data-follow-up="${esc(f.job)}" data-metric="sent">${num(f.sent)}</td>` +
        `<td>${num(f.delivered)} (${pct(f.delivered, f.sent)})</td><td>${num(f.read)} (${pct(f.read, f.sent)})</td><td>${num(f.replied)} (${pct(f.replied, f.sent)})</td></tr>`,
    )
    .join('\n');
  return `<section id="follow-ups"><h2>Follow-ups of this job</h2>
<table><thead><tr><th>job</th><th>who</th><th>sent</th><th>delivered</th><th>read</th><th>replied</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}
