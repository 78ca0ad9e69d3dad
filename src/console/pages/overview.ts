/** `/`: every job of the store, with its phase, contacts by status, rate, funnel, and each company's messaging limit. */
import { companyRooms, type JobFigures } from '../../app/index.js';
import { clockTime, esc, jobPath, type Shown } from './format.js';
import { contactKpis, funnelLine, jobTitle, phaseLine, rateLine, roomLine, sourceNote } from './job-parts.js';
import { page } from './layout.js';

/** The page's live parts by name, each its HTML: the same on the page and in its JSON. */
export function overviewSections(jobs: readonly JobFigures[], shown: Shown): Record<string, string> {
  return { companies: companies(jobs, shown), jobs: jobCards(jobs, shown) };
}

export function overviewPage(jobs: readonly JobFigures[], shown: Shown, extra: { location: string; signOut?: { csrf: string } }): string {
  const s = overviewSections(jobs, shown);
  return page({
    title: 'outreach console',
    header: `<h1>Jobs of the store</h1><p>${esc(extra.location)}; times in ${esc(shown.zone)}</p>`,
    body: `<div data-section="companies">${s.companies}</div>\n<div data-section="jobs">${s.jobs}</div>`,
    live: '/api/overview',
    updated: updatedLine(shown),
    ...(extra.signOut && { signOut: extra.signOut }),
  });
}

export function updatedLine(shown: Shown): string {
  return `updated ${clockTime(shown)}; updates by itself`;
}

function companies(jobs: readonly JobFigures[], shown: Shown): string {
  if (jobs.length === 0) return '';
  const rows = companyRooms(jobs)
    .map((c) => `<li data-company="${c.company ?? ''}">${c.company !== undefined ? `company ${esc(String(c.company))}` : 'jobs of no company'}: ${roomLine(c.room, shown)}${c.job !== undefined ? ` <span class="hint">(the limit job ${esc(c.job)} sets)</span>` : ''}</li>`)
    .join('');
  return `<section id="limits"><h2>Messaging limit left</h2><ul class="plain">${rows}</ul></section>`;
}

function jobCards(jobs: readonly JobFigures[], shown: Shown): string {
  if (jobs.length === 0) return `<section><p class="empty">This store holds no job yet: <code>outreach run</code> one, and it shows here.</p></section>`;
  return `<div class="jobs">${jobs.map((f) => card(f, shown)).join('\n')}</div>`;
}

function card(f: JobFigures, shown: Shown): string {
  return `<section class="job" data-job="${esc(f.key)}">
<h2>${jobTitle(f)}</h2>
${phaseLine(f, shown)}
${contactKpis(f)}
<div class="facts">
<div><span class="k">rate</span> ${rateLine(f)}</div>
<div><span class="k">funnel</span> ${funnelLine(f)}</div>
<div><span class="k">messaging limit</span> ${roomLine(f.status.messaging, shown)}</div>
</div>
${sourceNote(f)}
<p class="hint"><a href="${esc(jobPath(f.key))}">progress, failures, recipients…</a></p>
</section>`;
}
