import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createApiClient } from '../../api/index.js';
import type { Logger } from 'pino';
import {
  acquireLock,
  compactJournal,
  JournalWriteError,
  shouldCompact,
  type Checkpoint,
  globalStatePaths,
  jobStatePaths,
  loadWindow,
  openCheckpoint,
} from '../../checkpoint/index.js';
import { loadContacts, type Contact, type Reject } from '../../contacts/index.js';
import { describeChange, messageFingerprint } from '../../job/index.js';
import { formatSummary, summarise, writeRejects, writeReport } from '../../report/index.js';
import { createRateLimiter, execute, topErrors, type RetryMode } from '../../run/index.js';
import { resolveBaseUrl, resolveStateDir, resolveToken } from '../context.js';
import { CliError, ExitCode } from '../exit.js';
import { jobReportRows } from '../job-report.js';
import { fileLogger, flushLogger } from '../logger.js';
import { planPass } from '../plan-pass.js';
import { loaderOptions, prepare } from '../prepare.js';
import { createProgress } from '../progress.js';
import { checkRejectRatio } from '../reject-guard.js';

export interface RunFlags {
  baseUrl?: string;
  tokenFile?: string;
  stateDir?: string;
  json?: boolean;
  progress?: boolean;
  forceChanged?: boolean;
  retryInDoubt?: boolean;
}

/** How long in-flight requests may take to finish after SIGINT/SIGTERM before they are cut. */
const SHUTDOWN_GRACE_MS = 20_000;
/** How often a run re-reads the window store that the webhook receiver writes. */
const WINDOW_REFRESH_MS = 30_000;

function sendOptions(cmd: Command): Command {
  return cmd
    .argument('<job>', 'job file (JSON)')
    .option('--base-url <url>', 'platform address (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the token (default $OUTREACH_TOKEN)')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR or .outreach)')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar or progress lines')
    .option('--force-changed', 'send even though the message content changed since the checkpoint started');
}

export function registerRun(program: Command): void {
  sendOptions(program.command('run').description('Send the job: one first message per contact, rate-limited, checkpointed; continues an earlier run')).action(
    (jobPath: string, flags: RunFlags) => runCommand(jobPath, flags, { retryFailed: false, retryInDoubt: false }, 'run'),
  );
  sendOptions(program.command('resume').description('Continue an interrupted run and retry every retryable failure on its known conversation'))
    .option('--retry-in-doubt', 'also resend contacts in doubt (check them on the platform first)')
    .action((jobPath: string, flags: RunFlags) =>
      runCommand(jobPath, flags, { retryFailed: true, retryInDoubt: flags.retryInDoubt === true }, 'resume'),
    );
}

/**
 * run and resume. `connection` lets a caller in the same process (the demo) pass the platform's
 * address and token it already has; otherwise they come from the flags and the environment.
 */
export async function runCommand(
  jobPath: string,
  flags: RunFlags,
  mode: RetryMode,
  command: 'run' | 'resume',
  connection?: { baseUrl: string; token: string },
): Promise<void> {
  const stateDir = resolveStateDir(flags.stateDir);
  const baseUrl = connection?.baseUrl ?? resolveBaseUrl(flags.baseUrl);
  const token = connection?.token ?? (await resolveToken(flags.tokenFile));
  const prepared = await prepare(jobPath, {
    connect: (job) => createApiClient({ baseUrl, token, connections: job.rate.concurrency }),
    baseUrl,
  });
  const api = prepared.api!;
  const { job } = prepared;
  const paths = jobStatePaths(stateDir, job.name);
  const cleanup: Array<() => Promise<void>> = [() => api.close()];
  const runCleanup = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };

  try {
    const lock = await acquireLock(paths.lock, { pid: process.pid, startedAt: new Date().toISOString(), command });
    cleanup.push(() => lock.release());
    const logger = fileLogger(paths.runLog);
    cleanup.push(() => flushLogger(logger));
    if (lock.tookOverFrom !== undefined) logger.warn({ pid: lock.tookOverFrom }, 'took over the lock of a process that is gone');

    const checkpoint = await openJobCheckpoint(stateDir, job.name, logger);
    cleanup.push(() => checkpoint.close());
    const { fingerprint, content } = messageFingerprint(job);
    if (checkpoint.header && checkpoint.header.fingerprint !== fingerprint) {
      const changes = describeChange(checkpoint.header.content, content).join('; ');
      if (!flags.forceChanged) {
        throw new CliError(
          `job "${job.name}": the message changed since this job's checkpoint started (${changes}); ` +
            'run again with --force-changed to send the new content to the contacts not yet sent, or give the job a new name',
        );
      }
      logger.warn({ changes }, 'message content changed; going on with --force-changed');
    }
    // The webhook receiver may open windows while the run goes: the store is read again every WINDOW_REFRESH_MS.
    const windowFile = globalStatePaths(stateDir).window;
    let windows = await loadWindow(windowFile);
    const refresh = setInterval(() => {
      loadWindow(windowFile).then((w) => (windows = w), (err: unknown) => logger.warn({ err }, 'could not re-read the window store'));
    }, WINDOW_REFRESH_MS);
    refresh.unref();
    cleanup.push(async () => clearInterval(refresh));
    const lastInbound = (phone: string) => windows.lastInboundAt(phone);
    const pass = await planPass(prepared, Date.now(), lastInbound);
    await writeRejects(paths.rejects, pass.rejects);
    checkRejectRatio(job, pass, paths.rejects);
    // The content is pinned only once sending starts: a run refused before it sent nothing.
    if (!checkpoint.header || checkpoint.header.fingerprint !== fingerprint) {
      await checkpoint.record({ t: 'header', v: 1, job: job.name, fingerprint, content, at: new Date().toISOString() });
    }
    for (const w of prepared.warnings) logger.warn(w);
    logger.info({ job: job.name, command, contacts: pass.contacts, rejected: pass.rejects.length, channel: prepared.channel }, 'starting');

    const limiter = createRateLimiter({ perSecond: job.rate.per_second, ...(job.rate.per_minute ? { perMinute: job.rate.per_minute } : {}) });
    cleanup.push(() => limiter.stop());
    const stop = new AbortController();
    const cut = new AbortController();
    let graceTimer: NodeJS.Timeout | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stop.signal.aborted) {
        cut.abort(new Error(`${signal} again`));
        return;
      }
      logger.warn({ signal }, 'stopping: no new contacts; waiting for requests in flight');
      process.stderr.write(`\n${signal}: stopping after the requests in flight (${signal} again to cut them)\n`);
      stop.abort(new Error(signal));
      graceTimer = setTimeout(() => cut.abort(new Error('shutdown grace period over')), SHUTDOWN_GRACE_MS);
      graceTimer.unref();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    cleanup.push(async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (graceTimer) clearTimeout(graceTimer);
    });

    const progress = createProgress({
      total: pass.contacts,
      tty: process.stderr.isTTY === true,
      enabled: flags.progress !== false && flags.json !== true,
      logger,
    });
    const started = Date.now();
    // Rejected only at send time (the window moved since the plan pass and another message, with an
    // empty placeholder, was chosen): added to rejects.csv so no row is lost.
    const lateRejects: Reject[] = [];
    const lateRejected = new Set<string>();
    const result = await execute({
      api,
      job,
      channel: prepared.channel,
      contacts: contactsToSend(prepared.files, loaderOptions(job), pass.rejects, (reject) => lateRejects.push(reject)),
      prior: (phone) => checkpoint.state.get(phone),
      record: (event) => checkpoint.record(event),
      limiter,
      mode,
      concurrency: job.rate.concurrency,
      lastInbound,
      stopSignal: stop.signal,
      requestSignal: cut.signal,
      onReject: (reject, contact) => {
        lateRejects.push(reject);
        lateRejected.add(contact.phone);
      },
      onResult: (contact, r, stats) => {
        progress.update(stats);
        if (r.kind === 'failed' || r.kind === 'in_doubt') logger.warn({ phone: contact.phone, line: contact.line, outcome: r.kind, error: r.error }, 'contact not sent');
        if ((r.kind === 'sent' || r.kind === 'untouched') && r.warnings.length > 0) logger.warn({ phone: contact.phone, warnings: r.warnings }, 'after-send step failed');
      },
    });
    progress.stop();
    const finished = Date.now();
    if (lateRejects.length > 0) await writeRejects(paths.rejects, [...pass.rejects, ...lateRejects]);

    const states = checkpoint.state;
    const listed = lateRejected.size > 0 ? pass.phones.filter((c) => !lateRejected.has(c.phone)) : pass.phones;
    const rows = await jobReportRows(stateDir, states, listed);
    await writeReport(paths.report, rows, 'csv');
    const pending = rows.filter((r) => r.status === 'pending').length;
    const summary = summarise(states, {
      startedAt: new Date(started),
      finishedAt: new Date(finished),
      sentThisRun: result.stats.sent,
      pending,
    });
    const out = {
      job: job.name,
      command,
      stopped: result.stopReason ?? null,
      stop_message: result.stopMessage ?? null,
      this_run: {
        sent: result.stats.sent,
        failed: result.stats.failed,
        in_doubt: result.stats.inDoubt,
        skipped: result.stats.skipped,
        already_done: result.stats.untouched,
        warnings: result.stats.warnings,
        duration_ms: finished - started,
      },
      summary,
      pending,
      rejected: pass.rejects.length + lateRejects.length,
      top_errors: topErrors(result.stats),
      report_file: paths.report,
      rejects_file: paths.rejects,
    };
    await writeFile(paths.summary, `${JSON.stringify(out, null, 2)}\n`);
    logger.info(out, 'finished');

    if (flags.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    else process.stdout.write(humanEnd(out, formatSummary(summary)));

    if (result.stopReason) {
      if (!flags.json) process.stderr.write(`outreach: ${result.stopMessage}\n`);
      process.exitCode = ExitCode.aborted;
    } else {
      const bad = summary.byStatus.failed + summary.byStatus.in_doubt + summary.byStatus.pending;
      process.exitCode = bad > 0 ? ExitCode.failed : ExitCode.ok;
    }
  } catch (err) {
    if (err instanceof JournalWriteError) {
      throw new CliError(`${err.message}; nothing more was sent: make room or fix the folder, then run \`outreach resume\``, ExitCode.aborted);
    }
    throw err;
  } finally {
    await runCleanup();
  }
}

/**
 * Opens the job's checkpoint (we hold the lock): warns of torn lines, and first compacts a journal
 * that has grown to many events per contact (long resumes, many 429s).
 */
async function openJobCheckpoint(stateDir: string, jobName: string, logger: Logger): Promise<Checkpoint> {
  let checkpoint = await openCheckpoint(stateDir, jobName);
  if (checkpoint.tornLines > 0) {
    logger.warn({ lines: checkpoint.tornLineNumbers }, 'checkpoint lines that could not be read were skipped (a torn write)');
  }
  if (shouldCompact(checkpoint.eventsAtOpen, checkpoint.state.size)) {
    await checkpoint.close();
    const result = await compactJournal(checkpoint.paths.checkpoint);
    logger.info({ compaction: result }, 'checkpoint compacted');
    checkpoint = await openCheckpoint(stateDir, jobName);
  }
  return checkpoint;
}

/**
 * The loader's contacts less every row the plan pass rejected: those are in rejects.csv, and a
 * row listed there is never sent, even if the window moved since. Rows the plan pass did not see
 * (appended to a list since) that the loader rejects go to `onNewReject`.
 */
async function* contactsToSend(
  files: string[],
  options: ReturnType<typeof loaderOptions>,
  rejected: Reject[],
  onNewReject: (reject: Reject) => void,
): AsyncGenerator<Contact> {
  const skip = new Set(rejected.map((r) => `${r.file}:${r.line}`));
  const { items } = loadContacts(files, options);
  for await (const item of items) {
    if (item.kind === 'contact') {
      if (!skip.has(`${item.contact.file}:${item.contact.line}`)) yield item.contact;
    } else if (item.kind === 'reject' && !skip.has(`${item.reject.file}:${item.reject.line}`)) {
      onNewReject(item.reject);
    }
  }
}

function humanEnd(out: { job: string; command: string; report_file: string; rejects_file: string; rejected: number; pending: number; this_run: { duration_ms: number } }, summary: string): string {
  const lines = [`${out.command} of ${out.job} done in ${(out.this_run.duration_ms / 1000).toFixed(1)} s`, summary.trimEnd()];
  if (out.pending > 0) lines.push(`  pending (not reached): ${out.pending}; run \`outreach run\` again to continue`);
  lines.push(`  report:  ${out.report_file}`);
  lines.push(`  rejects: ${out.rejects_file} (${out.rejected} rows)`);
  return `${lines.join('\n')}\n`;
}
