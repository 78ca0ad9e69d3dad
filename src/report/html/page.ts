import { campaignSections } from './campaign-sections.js';
import { bar, columns, label } from './charts.js';
import { esc, inLocale, num, pct } from './escape.js';
import { STYLE } from './style.js';
import type { HtmlReportData } from './types.js';

/**
 * report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched: a strict
 * Content-Security-Policy says so to the browser too). Every number shown carries `data-metric`,
 * so a test (or a person's script) can read it back. Pure.
 */
export function renderHtmlReport(d: HtmlReportData): string {
  return inLocale(d.locale, () => page(d));
}

function page(d: HtmlReportData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(d.job)}: campaign report</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><h1>Campaign report: ${esc(d.job)}</h1><p>made ${esc(label(d.generatedAt, d.zone))} ${esc(d.zone)} from the job's state (times on this page are in ${esc(d.zone)}); <code>outreach track</code> updates delivery and reads</p></header>
${funnel(d)}
${campaignSections(d)}
${overview(d)}
${sends(d)}
${failures(d)}
${rejects(d)}
${heldBack(d)}
${replies(d)}
${inDoubt(d)}
</main>
</body>
</html>
`;
}

function kpi(metric: string, value: number, name: string, tone = ''): string {
  return `<div class="kpi ${tone}"><span class="n" data-metric="${metric}">${num(value)}</span><span class="l">${esc(name)}</span></div>`;
}

function overview(d: HtmlReportData): string {
  const s = d.byStatus;
  return `<section id="overview"><h2>Contacts</h2><div class="kpis">
${kpi('total', d.total, 'in the list')}
${kpi('sent', s.sent, 'sent')}
${kpi('failed', s.failed, 'failed', s.failed > 0 ? 'bad' : '')}
${kpi('in_doubt', s.in_doubt, 'in doubt', s.in_doubt > 0 ? 'warn' : '')}
${kpi('pending', s.pending, 'pending')}
${kpi('skipped', s.skipped, 'skipped')}
${kpi('deferred', s.deferred, 'deferred')}
${kpi('suppressed', d.suppressed, 'suppressed')}
${kpi('rejected', d.rejects.total, 'rejected rows')}
</div></section>`;
}

function funnel(d: HtmlReportData): string {
  const f = d.funnel;
  const stage = (key: string, name: string, value: number) =>
    `<div class="stage ${key}"><span class="name">${esc(name)}</span>${bar(value, f.sent, key)}<span class="count" data-funnel="${key}">${num(value)}</span><span class="share">${pct(value, f.sent)}</span></div>`;
  const untracked = f.sent - f.tracked;
  return `<section id="funnel"><h2>Funnel</h2><div class="funnel">
${stage('sent', 'sent', f.sent)}
${stage('delivered', 'delivered', f.delivered)}
${stage('read', 'read', f.read)}
${stage('replied', 'replied', f.replied)}
${stage('failed', 'not delivered', f.failed)}
</div><p class="hint">Shares are of the sent. ${
    untracked > 0 ? `${num(untracked)} sent messages were never read back: run <code>outreach track</code>.` : 'Every sent message was read back by <code>outreach track</code>.'
  } People with read receipts off never show as read.</p></section>`;
}

function sends(d: HtmlReportData): string {
  const { per, requestsPerSend } = d.sends;
  const each = requestsPerSend === 1 ? 'each send takes one request' : `each send takes at least ${num(requestsPerSend)} requests: the message and its after-send steps`;
  return `<section id="sends"><h2>Sends per ${esc(per)}</h2><p class="legend">bars: sends (messages accepted) per ${esc(per)}; <span class="swatch"></span>line: the most sends per ${esc(per)} the job's rate allows, <span data-metric="send_limit" data-unit="sends per ${esc(per)}">${num(d.sends.limitPerBucket)}</span> (rate: <span data-metric="rate_limit" data-unit="requests per ${esc(per)}">${num(d.sends.requestsPerBucket)}</span> requests per ${esc(per)}; ${each})</p>
${columns(d.sends.buckets, { limit: d.sends.limitPerBucket, name: 'sends', unit: `sends per ${per}`, zone: d.zone })}</section>`;
}

function failures(d: HtmlReportData): string {
  if (d.failures.length === 0) return `<section id="failures"><h2>Failures by class and code</h2><p class="empty">No failures.</p></section>`;
  const items = d.failures
    .map(
      (f) =>
        `<li><div class="head"><span class="count" data-failure="${esc(`${f.stage}:${f.code ?? 'none'}`)}">${num(f.count)}</span>` +
        `<span class="tag ${f.stage}">${f.stage === 'send' ? 'at send' : 'at delivery'}</span><code>${esc(f.className)}</code><span class="code">${f.code ?? 'no code'}</span></div>` +
        `<div>${esc(f.label)}</div><div class="example">${esc(f.example)}</div></li>`,
    )
    .join('\n');
  return `<section id="failures"><h2>Failures by class and code</h2><ul class="items">
${items}
</ul></section>`;
}

function rejects(d: HtmlReportData): string {
  const r = d.rejects;
  if (r.problem) return `<section id="rejects"><h2>Rejected rows</h2><p class="empty">${esc(r.problem)}</p></section>`;
  if (r.byReason.length === 0) return `<section id="rejects"><h2>Rejected rows</h2><p class="empty">No row was rejected.</p></section>`;
  const rows = r.byReason
    .map((g) => {
      const examples = g.examples.map((e) => `<li>line ${esc(e.line)}: <code>${esc(e.phone || '(empty)')}</code> ${esc(e.detail)}</li>`).join('');
      return `<tr><td><code>${esc(g.reason)}</code><ul class="examples">${examples}</ul></td><td class="n" data-reject="${esc(g.reason)}">${num(g.count)}</td></tr>`;
    })
    .join('\n');
  return `<section id="rejects"><h2>Rejected rows, by reason</h2><div class="scroll"><table><thead><tr><th>reason, with examples</th><th>rows</th></tr></thead><tbody>
${rows}
</tbody></table></div><p class="hint">Every rejected row is in rejects.csv beside this page.</p></section>`;
}

function heldBack(d: HtmlReportData): string {
  const deferred = d.deferred.length
    ? `<ul class="plain">${d.deferred.map((x) => `<li><code>${esc(x.reason)}</code>: ${num(x.count)}</li>`).join('')}</ul>`
    : '<p class="empty">None deferred.</p>';
  return `<section id="held"><h2>Deferred and suppressed</h2>${deferred}<p class="hint">${num(d.suppressed)} contacts of this job are on the suppression list (by hand, imported, a STOP reply, or the provider's 131050 at send or at delivery): no job of this state folder messages them.</p></section>`;
}

function replies(d: HtmlReportData): string {
  return `<section id="replies"><h2>Replies per ${esc(d.replies.per)}</h2>${columns(d.replies.buckets, { name: 'replies', unit: `replies per ${d.replies.per}`, zone: d.zone })}</section>`;
}

function inDoubt(d: HtmlReportData): string {
  if (d.inDoubt.length === 0) return `<section id="in-doubt"><h2>In doubt</h2><p class="empty">No contact is in doubt.</p></section>`;
  const items = d.inDoubt
    .map(
      (x) =>
        `<li data-in-doubt="${esc(x.phone)}"><div class="head"><code class="phone">${esc(x.phone)}</code>${x.line !== undefined ? `<span>line ${x.line}</span>` : ''}` +
        `<span>conversation ${x.conversationId ? `<code data-conversation>${esc(x.conversationId)}</code>` : 'not known'}</span>${x.clientId ? `<span>client <code>${esc(x.clientId)}</code></span>` : ''}</div>` +
        `<div class="example">${esc(x.error)}</div></li>`,
    )
    .join('\n');
  const more = d.inDoubtMore > 0 ? ` ${num(d.inDoubtMore)} more are in report.csv.` : '';
  return `<section id="in-doubt"><h2>In doubt: check these on the platform</h2><ul class="items">
${items}
</ul><p class="hint">A request left and no answer came: the message may have reached the platform. <code>outreach reconcile</code> reads the platform back and settles them.${more}</p></section>`;
}
