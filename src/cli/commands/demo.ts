import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { planJob, prepare, suppressPhones } from '../../app/index.js';
import { startSimulator } from '../../sim/index.js';
import { keywordsFromEnv, startReceiver } from '../../webhook/index.js';
import { demoAudience } from '../demo-audience.js';
import { demoNextSteps } from '../demo-next.js';
import { freshDemoFolder } from '../demo-folder.js';
import { describeDemoRefusals, forceDemoRefusals } from '../demo-provider.js';
import { DEMO_DELIVERY, demoTrack } from '../demo-track.js';
import { ExitCode } from '../exit.js';
import { formatPlan } from '../format/plan.js';
import { readersOf } from '../format/time.js';
import { repoRoot } from '../repo-root.js';
import { runSession } from '../run-session.js';
import { openStore } from '../store-root.js';
import { openApi } from '../api-root.js';

/** The faults the demo's platform has during the first run: some sends fail (502), and a rate limit below the job's rate. */
const DEMO_FAULTS = { failRate: 0.2, rateLimitPerSecond: 80 };
const START = 'POST /chat/conversations/start-whatsapp';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('See it work, no token or network needed: a local simulator with faults, plan, run, resume, report')
    .option('--state-dir <dir>', 'where the demo keeps its state (default .outreach-demo; emptied first)')
    .option('--no-progress', 'no progress bar or progress lines')
    .action((flags: { stateDir?: string; progress?: boolean }) => demo(flags));
}

async function demo(flags: { stateDir?: string; progress?: boolean }): Promise<void> {
  const jobFile = path.join(repoRoot(), 'jobs', 'demo.json');
  const folder = await freshDemoFolder(path.resolve(flags.stateDir ?? '.outreach-demo'));
  const store = await openStore({ kind: 'folder', path: folder, filesDir: folder });
  const say = (text: string) => process.stdout.write(`${text}\n`);
  const shown = (file: string) => (path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file));

  const sim = await startSimulator({ faults: DEMO_FAULTS, seed: 2026, delivery: DEMO_DELIVERY });
  const api = openApi({ baseUrl: sim.url, token: sim.token });
  const secret = randomBytes(16).toString('hex');
  const receiver = await startReceiver({ port: 0, secret, store, api, keywords: keywordsFromEnv(process.env) });
  sim.state.setWebhook({ url: receiver.url, secret });
  try {
    say(`== 1. A simulated platform at ${sim.url} (token "${sim.token}")`);
    say(`   faults on: ${DEMO_FAULTS.failRate * 100}% of sends fail with 502, and it allows only ${DEMO_FAULTS.rateLimitPerSecond} requests/s (the job asks for more)`);
    say(`   webhook receiver at ${receiver.url}, signed with a fresh secret`);

    const prepared = await prepare(jobFile, { api });
    const { every, listed, optOut } = await demoAudience(prepared, Date.now());
    for (const phone of [...every, ...listed]) sim.state.inbound(phone, 'Oi! Vocês têm cupom de Black Friday?');
    if (optOut) sim.state.inbound(optOut.stop, 'PARAR');
    await sim.state.webhookIdle();
    await receiver.settled();
    say(`\n== 2. ${every.length} contacts wrote to the company before the campaign; the webhook recorded their 24-hour windows`);
    if (listed.length > 0) say(`   (and the platform also holds the recent replies of the ${listed.length} contacts whose last_reply column says so)`);
    if (optOut) {
      await suppressPhones(store, [optOut.byHand], { reason: 'asked the call centre not to be contacted' });
      say(`   ${optOut.stop} replied "PARAR" (STOP, in Portuguese): an opt-out keyword, so the webhook put the number on the suppression list`);
      say(`   ${optOut.byHand} asked not to be contacted: outreach suppress add ${optOut.byHand} --state-dir ${shown(store.location)} --reason "asked the call centre not to be contacted"`);
      say('   every job of the company skips both (skip:suppressed), checked again right before each send');
    }

    say(`\n== 3. outreach plan ${shown(jobFile)}   (a dry run: nothing sent)`);
    const plan = await planJob(prepared, { store });
    process.stdout.write(formatPlan(plan, readersOf({})));
    const { refusals, line } = forceDemoRefusals(sim, plan.lastPhones);

    // The demo narrates on stdout: its progress is the bar at a terminal, never lines between the narration.
    const session = { store, connection: { baseUrl: sim.url, token: sim.token }, progress: flags.progress !== false, progressEveryMs: 0 };
    say(`\n== 4. outreach run ${shown(jobFile)}`);
    if (line) say(line);
    const runCode = await runSession(prepared, { ...session, command: 'run', mode: { retryFailed: false, retryInDoubt: false } });
    say(`   (exit code ${runCode}: ${runCode === ExitCode.failed ? 'some contacts failed; their conversation ids are in the checkpoint' : 'done'})`);
    say(
      `   the simulator answered ${sim.state.counters.byStatus['502'] ?? 0} times 502 (retried on the same conversations) and ${sim.state.counters.rateLimited} times 429 (waited out)` +
        (runCode === ExitCode.failed ? '; the contacts still failing wait for resume' : ''),
    );

    sim.state.setFaults({ failRate: 0 });
    say('\n== 5. The platform recovers. outreach resume: each failed contact is retried on its existing conversation');
    const startsBefore = sim.state.counters.byEndpoint[START] ?? 0;
    const resumed = await runSession(prepared, { ...session, command: 'resume', mode: { retryFailed: true, retryInDoubt: false } });
    say(`   start-whatsapp calls during resume: ${(sim.state.counters.byEndpoint[START] ?? 0) - startsBefore} (retries went to wba-send-template or messages on the same conversations)`);
    for (const text of await describeDemoRefusals(store, prepared.job.name, refusals, resumed)) say(text);

    const html = await demoTrack(jobFile, { store, sim, settled: () => receiver.settled(), say, step: '6' });
    const files = store.jobFiles(prepared.job.name);
    say('\n== 7. Where things are');
    const head = (await readFile(files.report, 'utf8')).split('\n').slice(0, 4);
    say(`   report.csv, first rows:\n${head.map((l) => `     ${l}`).join('\n')}`);
    say(`   report:     ${files.report}`);
    say(`   the page:   ${html}   (open it in a browser; \`outreach report --format html\` makes it again)`);
    say(`   rejects:    ${files.rejects}`);
    say(`   run log:    ${files.log}`);
    say(`   state:      ${store.location} (checkpoint, webhook events, windows)`);
    say('\nNext, against your real platform:');
    for (const line of demoNextSteps(repoRoot(), process.cwd())) say(`   ${line}`);
    say(`\nThe campaign's page, to open in a browser: ${html}`);
  } finally {
    await receiver.close();
    await api.close();
    await sim.close();
  }
}
