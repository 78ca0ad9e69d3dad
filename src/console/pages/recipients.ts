/** The job page's recipient table: report.csv's rows filtered by status and phone, a page at a time, and the same as a CSV download. */
import { RECIPIENT_STATUSES, type JobFigures, type RecipientFilter, type RecipientPage } from '../../app/index.js';
import type { ReportRow } from '../../report/index.js';
import { esc, jobPath, num, time, type Shown } from './format.js';

/** The query of a filter (and a page), for a link. */
export function filterQuery(filter: RecipientFilter, more: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (filter.status !== undefined) q.set('status', filter.status);
  if (filter.phone !== undefined && filter.phone !== '') q.set('phone', filter.phone);
  for (const [k, v] of Object.entries(more)) q.set(k, v);
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

/** How many rows the filter keeps, when the counts tell (a status alone, or none); undefined with a phone. */
function matching(f: JobFigures, filter: RecipientFilter): number | undefined {
  if (filter.phone !== undefined && filter.phone.replace(/\D/g, '') !== '') return undefined;
  const s = f.status.summary;
  if (filter.status === undefined) return s.total;
  // report.csv writes a request in flight as in doubt.
  return s.byStatus[filter.status] + (filter.status === 'in_doubt' ? (s.inFlight ?? 0) : 0);
}

export function recipientsSection(f: JobFigures, filter: RecipientFilter, page: RecipientPage, shown: Shown): string {
  const options = ['', ...RECIPIENT_STATUSES].map((s) => `<option value="${s}"${(filter.status ?? '') === s ? ' selected' : ''}>${s === '' ? 'any status' : s.replace('_', ' ')}</option>`).join('');
  const form = `<form class="filter" method="get" action="${esc(jobPath(f.key))}#recipients">
<label>status<select name="status">${options}</select></label>
<label>phone<input name="phone" inputmode="tel" value="${esc(filter.phone ?? '')}" placeholder="digits, e.g. 55119"></label>
<button class="button" type="submit">Show</button>
</form>`;
  const total = matching(f, filter);
  const first = (page.page - 1) * page.pageSize;
  const rowsLine = page.rows.length === 0 ? 'no row' : `rows ${num(first + 1)}–${num(first + page.rows.length)}${total !== undefined ? ` of ${num(total)}` : ''}`;
  const prev = page.page > 1 ? `<a rel="prev" href="${esc(jobPath(f.key, filterQuery(filter, { page: String(page.page - 1) })))}#recipients">← previous</a>` : '';
  const next = page.more ? `<a rel="next" href="${esc(jobPath(f.key, filterQuery(filter, { page: String(page.page + 1) })))}#recipients">next →</a>` : '';
  const csv = jobPath(f.key, `/contacts.csv${filterQuery(filter)}`);
  const excel = jobPath(f.key, `/contacts.csv${filterQuery(filter, { excel: '1' })}`);
  return `<section id="recipients"><h2>Recipients</h2>${form}
<div class="scroll"><table id="recipient-rows"><thead><tr><th>phone</th><th>name</th><th>status</th><th>action</th><th>why</th><th>when</th><th>delivery</th><th>replied</th></tr></thead><tbody>
${page.rows.map((r) => row(r, shown)).join('\n')}
</tbody></table></div>
<div class="pager"><span data-metric="rows">${rowsLine}</span>${prev}${next}<a id="csv" href="${esc(csv)}" download>CSV (report's columns)</a><a id="csv-excel" href="${esc(excel)}" download>CSV for a spreadsheet</a></div>
<p class="hint">The table is as the page was loaded; its rows are report.csv's, in its order.</p></section>`;
}

function row(r: ReportRow, shown: Shown): string {
  const why = r.error_class !== undefined ? `${r.error_class}${r.error ? `: ${r.error}` : ''}` : (r.error ?? '');
  const when = r.sent_at ?? r.not_before ?? r.updated_at ?? '';
  return `<tr data-phone="${esc(r.phone)}"><td><code>${esc(r.phone)}</code></td><td>${esc(r.name ?? '')}</td><td data-status>${esc(r.status)}</td><td>${esc(r.action)}</td><td class="example">${esc(why)}</td><td>${when === '' ? '' : time(when, shown)}</td><td>${esc(r.delivery_status ?? '')}</td><td>${r.replied_at === undefined || r.replied_at === '' ? '' : time(r.replied_at, shown)}</td></tr>`;
}
