import type { Command } from 'commander';
import { createApiClient } from '../../api/index.js';
import { globalStatePaths, jobStatePaths, loadWindow } from '../../checkpoint/index.js';
import type { ChannelType } from '../../plan/index.js';
import { writeRejects } from '../../report/index.js';
import { resolveBaseUrl, resolveStateDir, resolveToken } from '../context.js';
import { CliError } from '../exit.js';
import { planPass, type PlanPass } from '../plan-pass.js';
import { prepare, type Prepared } from '../prepare.js';
import { checkRejectRatio, pct } from '../reject-guard.js';

interface PlanFlags {
  offline?: boolean;
  channelType?: string;
  json?: boolean;
  stateDir?: string;
  baseUrl?: string;
  tokenFile?: string;
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('Dry run: check the job against the platform and show what would be sent to whom (sends nothing)')
    .argument('<job>', 'job file (JSON)')
    .option('--offline', 'skip the platform checks (no token needed); give --channel-type')
    .option('--channel-type <type>', 'with --offline: the channel type, wba, whatsapp or ww')
    .option('--json', 'print the plan as one JSON object')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR or .outreach)')
    .option('--base-url <url>', 'platform address (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the token (default $OUTREACH_TOKEN)')
    .action(async (jobPath: string, flags: PlanFlags) => {
      const prepared = await prepareFor(jobPath, flags);
      const paths = jobStatePaths(resolveStateDir(flags.stateDir), prepared.job.name);
      const windows = await loadWindow(globalStatePaths(resolveStateDir(flags.stateDir)).window);
      const pass = await planPass(prepared, Date.now(), (phone) => windows.lastInboundAt(phone));
      await writeRejects(paths.rejects, pass.rejects);
      if (flags.json) process.stdout.write(`${JSON.stringify(planJson(prepared, pass, paths.rejects), null, 2)}\n`);
      else process.stdout.write(formatPlan(prepared, pass, paths.rejects));
      checkRejectRatio(prepared.job, pass, paths.rejects);
    });
}

async function prepareFor(jobPath: string, flags: PlanFlags): Promise<Prepared> {
  if (flags.offline) {
    const type = flags.channelType;
    if (type !== undefined && type !== 'wba' && type !== 'whatsapp' && type !== 'ww') {
      throw new CliError(`--channel-type: "${type}" is not a channel type; use wba, whatsapp or ww`);
    }
    return prepare(jobPath, { offlineChannelType: type as ChannelType | undefined });
  }
  const baseUrl = resolveBaseUrl(flags.baseUrl);
  const token = await resolveToken(flags.tokenFile);
  const prepared = await prepare(jobPath, { connect: () => createApiClient({ baseUrl, token }), baseUrl });
  await prepared.api?.close();
  return prepared;
}

export function planJson(prepared: Prepared, pass: PlanPass, rejectsFile: string) {
  return {
    job: prepared.job.name,
    channel: prepared.channel,
    files: prepared.files,
    rows: pass.rows,
    contacts: pass.contacts,
    rejected: pass.rejects.length,
    rejected_by_reason: pass.rejectedByReason,
    planned_by_action: pass.byAction,
    examples: pass.examples,
    warnings: prepared.warnings,
    rejects_file: rejectsFile,
  };
}

export function formatPlan(prepared: Prepared, pass: PlanPass, rejectsFile: string): string {
  const { job, channel } = prepared;
  const lines: string[] = [];
  lines.push(`plan for job ${job.name}: channel ${channel.id} (${channel.type}${channel.name ? `, ${channel.name}` : ''})`);
  for (const w of prepared.warnings) lines.push(`  warning: ${w}`);
  lines.push(`  rows read        ${pad(pass.rows)}  from ${prepared.files.length} file${prepared.files.length === 1 ? '' : 's'}`);
  lines.push(`  rejected         ${pad(pass.rejects.length)}  ${pass.rows ? pct(pass.rejects.length / pass.rows) : ''}`);
  for (const [reason, n] of sorted(pass.rejectedByReason)) lines.push(`    ${reason.padEnd(30)} ${pad(n)}`);
  lines.push(`  planned          ${pad(pass.contacts)}`);
  for (const [action, n] of sorted(pass.byAction)) lines.push(`    ${action.padEnd(30)} ${pad(n)}`);
  if (pass.examples.length > 0) {
    lines.push('  examples');
    for (const e of pass.examples) lines.push(`    ${e.phone} (line ${e.line}) ${e.action}: ${e.message}`);
  }
  lines.push(`  rejects written to ${rejectsFile}`);
  lines.push('nothing was sent: this is a dry run');
  return `${lines.join('\n')}\n`;
}

function sorted(counts: Record<string, number>): Array<[string, number]> {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function pad(n: number): string {
  return String(n).padStart(6);
}
