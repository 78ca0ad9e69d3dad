/** The parts of a job both pages show: its phase, its contacts by status, its rate, its funnel, the messaging limit. */
import type { JobFigures, MessagingRoom } from '../../app/index.js';

import { esc, jobPath, num, pct, plural, rate, time, type Shown } from './format.js';

/** The phase as a badge and a sentence: running where since when, its run gone, finished, idle with what is left. */
export function phaseLine(f: JobFigures, shown: Shown): string {
  const p = f.phase;
  switch (p.kind) {
    case 'running': {
      const r = p.runner;
      const command = r.command ? `, <code>outreach ${esc(r.command)}</code>` : '';
      const since = r.since ? ` since ${time(r.since, shown)}` : '';
      return `<p class="state" data-phase="running"><span class="badge running">running</span>on host <b data-metric="host">${esc(r.host)}</b>${since} (pid ${esc(String(r.pid))}${command})</p>`;
    }
    case 'gone': {
      const r = p.runner;
      return `<p class="state" data-phase="gone"><span class="badge gone">run gone</span>its run, pid ${esc(String(r.pid))} on host <b>${esc(r.host)}</b>, ended without letting the job go; a run on that host takes it over at once, one elsewhere from ${time(p.runner.gone?.until ?? '', shown)}</p>`;
    }
    case 'finished':
      return `<p class="state" data-phase="finished"><span class="badge finished">finished</span>every contact is done</p>`;
    case 'idle': {
      const next = p.nextAt !== undefined ? `; the first deferred may go from ${time(p.nextAt, shown)}` : '';
      return `<p class="state" data-phase="idle"><span class="badge idle">idle</span>${plural(p.notDone, 'contact')} not done${next}; <code>outreach resume</code> goes on</p>`;
    }
    default: {
      const never: never = p;
      return never;
    }
  }
}

function kpi(metric: string, value: number, name: string, tone = ''): string {
  return `<div class="kpi ${tone}"><span class="n" data-metric="${metric}">${num(value)}</span><span class="l">${esc(name)}</span></div>`;
}

/** The contacts by status, as `status` counts them (in flight apart while a run holds the job). */
export function contactKpis(f: JobFigures): string {
  const s = f.status.summary;
  const b = s.byStatus;
  return `<div class="kpis">
${kpi('total', s.total, 'contacts')}
${kpi('sent', b.sent, 'sent')}
${kpi('failed', b.failed, 'failed', b.failed > 0 ? 'bad' : '')}
${kpi('in_doubt', b.in_doubt, 'in doubt', b.in_doubt > 0 ? 'warn' : '')}
${s.inFlight !== undefined ? kpi('in_flight', s.inFlight, 'in flight') : ''}
${kpi('pending', b.pending, 'pending')}
${kpi('skipped', b.skipped, 'skipped')}
${kpi('deferred', b.deferred, 'deferred')}
</div>`;
}

/** The rate now (sent a minute, measured while it runs) against the rate asked. */
export function rateLine(f: JobFigures): string {
  const { rate: r, phase } = f;
  const asked = r.askedPerMinute !== undefined ? `up to <span data-metric="rate_asked">${num(r.askedPerMinute)}</span> a minute asked` : 'the rate asked is in the job file, not read here';
  if (phase.kind !== 'running') return `<span data-metric="rate_now">not sending</span>; ${asked}`;
  if (r.perMinute === undefined) return `<span data-metric="rate_now">measuring</span> (a few seconds); ${asked}`;
  const slow = r.askedPerMinute !== undefined && r.askedPerMinute > 0 && r.perMinute < 0.8 * r.askedPerMinute ? ' class="bad"' : '';
  return `<b${slow} data-metric="rate_now">${rate(r.perMinute)}</b> sent a minute now, against ${asked}`;
}

/** What the rate asked means in requests (rate.per_second, and the requests a send takes). */
export function rateHint(f: JobFigures): string {
  const r = f.rate;
  if (r.askedRequestsPerSecond === undefined) return '';
  const each = r.requestsPerSend === 1 ? 'one request a send' : `${num(r.requestsPerSend ?? 1)} requests a send at the least (the message and its after-send steps)`;
  const measured = f.phase.kind === 'running' && r.perMinute !== undefined ? `; the rate now is measured over the last ${rate(r.overMs / 1000)} s of this console's readings` : '';
  return `rate.per_second ${rate(r.askedRequestsPerSecond)} (requests), ${each}${measured}`;
}

/** Sent → delivered → read → replied, as counts (shares of the sent). */
export function funnelLine(f: JobFigures): string {
  const n = f.status.funnel;
  const stage = (key: string, name: string, value: number) => `<span>${esc(name)} <b data-funnel="${key}">${num(value)}</b>${key === 'sent' ? '' : ` (${pct(value, n.sent)})`}</span>`;
  return `${stage('sent', 'sent', n.sent)} → ${stage('delivered', 'delivered', n.delivered)} → ${stage('read', 'read', n.read)} → ${stage('replied', 'replied', n.replied)}`;
}

/** The messaging limit's room in the rolling 24 hours (every job and process of the company). */
export function roomLine(room: MessagingRoom, shown: Shown): string {
  const used = `${plural(room.used, 'recipient')} messaged outside their window in the rolling 24 hours`;
  if (room.limit === undefined || room.room === undefined) return `no limit set (limits.daily_unique_recipients); ${used}`;
  const held = room.held !== undefined && room.held > 0 ? `, ${num(room.held)} held by running processes` : '';
  const frees = room.freesAt !== undefined ? `; the next place frees at ${time(room.freesAt, shown)}` : '';
  return `<b data-metric="limit_left">${num(room.room)}</b> of ${num(room.limit)} left (${used}${held})${frees}`;
}

/** A note on figures read from the store alone (the job file cannot be read here). */
export function sourceNote(f: JobFigures): string {
  return f.from.kind === 'store' ? `<p class="note">${esc(f.status.listProblem ?? f.from.why)}</p>` : '';
}

/** The job's name as a link to its page, with its company. */
export function jobTitle(f: JobFigures): string {
  const company = f.company !== undefined ? `<span class="company">company ${esc(String(f.company))}</span>` : '';
  return `<a href="${esc(jobPath(f.key))}">${esc(f.key)}</a>${company}`;
}
