import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { createApiClient } from '../../api/index.js';
import { globalStatePaths, jobStatePaths, loadWindow } from '../../checkpoint/index.js';
import { loadContacts } from '../../contacts/index.js';
import { startSimulator } from '../../sim/index.js';
import { startReceiver } from '../../webhook/index.js';
import { CliError, ExitCode } from '../exit.js';
import { planPass } from '../plan-pass.js';
import { loaderOptions, prepare } from '../prepare.js';
import { repoRoot } from '../repo-root.js';
import { formatPlan } from './plan.js';
import { runCommand } from './run.js';

interface DemoFlags {
  stateDir?: string;
  progress?: boolean;
}

/** The faults the demo's platform has during the first run: some sends fail (502), and a rate limit below the job's rate. */
const DEMO_FAULTS = { failRate: 0.2, rateLimitPerSecond: 80 };
/** How many contacts reply before the campaign (their 24-hour windows open, so they get text + media). */
const DEMO_REPLIES = 12;
/** A file that marks a folder as the demo's own, so it may be emptied at the next demo. */
const MARKER = '.outreach-demo';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('See it work, no token or network needed: a local simulator with faults, plan, run, resume, report')
    .option('--state-dir <dir>', 'where the demo keeps its state (default .outreach-demo; emptied first)')
    .option('--no-progress', 'no progress bar or progress lines')
    .action((flags: DemoFlags) => demo(flags));
}

async function demo(flags: DemoFlags): Promise<void> {
  const root = repoRoot();
  const jobFile = path.join(root, 'jobs', 'demo.json');
  const stateDir = path.resolve(flags.stateDir ?? '.outreach-demo');
  await freshStateDir(stateDir);
  const say = (text: string) => process.stdout.write(`${text}\n`);
  const shown = (file: string) => (path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file));

  const sim = await startSimulator({ faults: DEMO_FAULTS, seed: 2026 });
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  const secret = randomBytes(16).toString('hex');
  const receiver = await startReceiver({ port: 0, secret, stateDir, api });
  sim.state.setWebhook({ url: receiver.url, secret });
  try {
    say(`== 1. A simulated platform at ${sim.url} (token "${sim.token}")`);
    say(`   faults on: ${DEMO_FAULTS.failRate * 100}% of sends fail with 502, and it allows only ${DEMO_FAULTS.rateLimitPerSecond} requests/s (the job asks for more)`);
    say(`   webhook receiver at ${receiver.url}, signed with a fresh secret`);

    const prepared = await prepare(jobFile, { connect: () => createApiClient({ baseUrl: sim.url, token: sim.token }) });
    await prepared.api?.close();
    const { every, listed } = await repliers(prepared.files, loaderOptions(prepared.job), DEMO_REPLIES, Date.now());
    for (const phone of [...every, ...listed]) sim.state.inbound(phone, 'Oi! Vocês têm cupom de Black Friday?');
    await sim.state.webhookIdle();
    await receiver.settled();
    say(`\n== 2. ${every.length} contacts wrote to the company before the campaign; the webhook recorded their 24-hour windows`);
    if (listed.length > 0) say(`   (and the platform also holds the recent replies of the ${listed.length} contacts whose last_reply column says so)`);

    const windows = await loadWindow(globalStatePaths(stateDir).window);
    const pass = await planPass(prepared, Date.now(), (phone) => windows.lastInboundAt(phone));
    say(`\n== 3. outreach plan ${shown(jobFile)}   (a dry run: nothing sent)`);
    process.stdout.write(formatPlan(prepared, pass, jobStatePaths(stateDir, prepared.job.name).rejects));

    const runFlags = { stateDir, progress: flags.progress !== false };
    const connection = { baseUrl: sim.url, token: sim.token };
    say(`\n== 4. outreach run ${shown(jobFile)}`);
    await runCommand(jobFile, runFlags, { retryFailed: false, retryInDoubt: false }, 'run', connection);
    const runCode = process.exitCode;
    say(`   (exit code ${runCode}: ${runCode === ExitCode.failed ? 'some contacts failed; their conversation ids are in the checkpoint' : 'done'})`);
    const failedNow = process.exitCode === ExitCode.failed;
    say(
      `   the simulator answered ${sim.state.counters.byStatus['502'] ?? 0} times 502 (retried on the same conversations) and ${sim.state.counters.rateLimited} times 429 (waited out)` +
        (failedNow ? '; the contacts still failing wait for resume' : ''),
    );

    sim.state.setFaults({ failRate: 0 });
    say('\n== 5. The platform recovers. outreach resume: each failed contact is retried on its existing conversation');
    const startsBefore = sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0;
    process.exitCode = undefined;
    await runCommand(jobFile, runFlags, { retryFailed: true, retryInDoubt: false }, 'resume', connection);
    const startsAfter = sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0;
    say(`   start-whatsapp calls during resume: ${startsAfter - startsBefore} (retries went to wba-send-template or messages on the same conversations)`);

    const paths = jobStatePaths(stateDir, prepared.job.name);
    say('\n== 6. Where things are');
    const head = (await readFile(paths.report, 'utf8')).split('\n').slice(0, 4);
    say(`   report.csv, first rows:\n${head.map((l) => `     ${l}`).join('\n')}`);
    say(`   report:     ${paths.report}`);
    say(`   rejects:    ${paths.rejects}`);
    say(`   checkpoint: ${paths.checkpoint}`);
    say(`   run log:    ${paths.runLog}`);
    say(`   webhook events: ${globalStatePaths(stateDir).events}`);
    say('\nNext, against your real platform:');
    say('   export OUTREACH_BASE_URL=https://your-platform.example OUTREACH_TOKEN=…   # from Settings → Integrations');
    say('   npx outreach channels --company-id 1 && npx outreach templates            # find channel_id and a template');
    say('   npx outreach plan jobs/black-friday.json && npx outreach run jobs/black-friday.json');
  } finally {
    await receiver.close();
    await api.close();
    await sim.close();
  }
}

/**
 * Who has written to the company: every k-th usable contact (n of them), plus those whose
 * last_reply column is within the last day (so the simulated platform agrees with the list).
 */
async function repliers(
  files: string[],
  options: ReturnType<typeof loaderOptions>,
  n: number,
  now: number,
): Promise<{ every: string[]; listed: string[] }> {
  const phones: string[] = [];
  const listed: string[] = [];
  const { items } = loadContacts(files, options);
  for await (const item of items) {
    if (item.kind !== 'contact') continue;
    phones.push(item.contact.phone);
    const last = item.contact.lastInboundAt;
    if (last !== undefined && now - last < 24 * 3_600_000) listed.push(item.contact.phone);
  }
  const step = Math.max(1, Math.floor(phones.length / n));
  const every = phones.filter((phone, i) => i % step === 0 && !listed.includes(phone)).slice(0, n);
  return { every, listed };
}

/** The demo's folder starts empty; a folder that is not the demo's own is never emptied. */
async function freshStateDir(dir: string): Promise<void> {
  if (existsSync(dir)) {
    if (!existsSync(path.join(dir, MARKER))) {
      throw new CliError(`${dir} exists and is not a demo folder; pass --state-dir with a new or demo folder`);
    }
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, MARKER), 'made by `outreach demo`; emptied at the next demo\n');
}
