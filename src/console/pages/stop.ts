/** The confirmation before the one action: stopping a job's run, as `outreach stop` does. */
import type { JobFigures, StopOutcome } from '../../app/index.js';
import { esc, jobPath, time, type Shown } from './format.js';
import { page } from './layout.js';

export function stopPage(f: JobFigures, shown: Shown, host: string, csrf: string, signOut?: { csrf: string }): string {
  const p = f.phase;
  let body: string;
  if (p.kind !== 'running') {
    body = `<p>No run holds job ${esc(f.key)} now: nothing to stop.</p><p><a class="button" href="${esc(jobPath(f.key))}">Back to the job</a></p>`;
  } else if (p.runner.host !== host) {
    body = `<p>Job ${esc(f.key)} runs on host ${esc(p.runner.host)} (pid ${esc(String(p.runner.pid))}), not this one (${esc(host)}): a signal cannot reach it from here. Run <code>outreach stop</code> there.</p><p><a class="button" href="${esc(jobPath(f.key))}">Back to the job</a></p>`;
  } else {
    body = `<p>Stop the run of job <b>${esc(f.key)}</b>: pid ${esc(String(p.runner.pid))} on host ${esc(p.runner.host)}${p.runner.since ? `, since ${time(p.runner.since, shown)}` : ''}?</p>
<p>It is asked as one SIGTERM asks it (what <code>outreach stop</code> does): no new contact is started, the requests in flight finish and are recorded, then it exits. <code>outreach resume</code> goes on later.</p>
<form method="post" action="${esc(jobPath(f.key, '/stop'))}" class="actions"><input type="hidden" name="csrf" value="${esc(csrf)}"><button class="button danger" id="confirm-stop" type="submit">Stop the run</button><a class="button" href="${esc(jobPath(f.key))}">Cancel</a></form>`;
  }
  return page({ title: `Stop ${f.key}?`, header: `<h1>Stop ${esc(f.key)}?</h1>`, body: `<section>${body}</section>`, ...(signOut && { signOut }) });
}

/** What the stop did, as a sentence for the job's page. */
export function stopNotice(job: string, outcome: StopOutcome, host: string): string {
  switch (outcome.kind) {
    case 'signalled':
      return `Asked pid ${outcome.runner.pid} on this host to stop job ${job} (as one SIGTERM does): it finishes the requests in flight, then exits; outreach resume goes on later.`;
    case 'other_host':
      return `Job ${job} runs on host ${outcome.runner.host} (pid ${outcome.runner.pid}), not this one (${host}): run outreach stop there.`;
    case 'gone':
      return `Nothing holds job ${job}: its owner, pid ${outcome.runner.pid} on this host, is gone; the next run takes the job over.`;
    case 'not_running':
      return `Nothing holds job ${job}: no run, resume or track of it is going on.`;
    default: {
      const never: never = outcome;
      return never;
    }
  }
}
