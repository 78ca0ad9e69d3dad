import { hostname } from 'node:os';
import type { Command } from 'commander';
import { AppError, planJob, prepare, zoneOfJob, type Prepared } from '../../app/index.js';
import type { ChannelType } from '../../plan/index.js';
import type { StateStore } from '../../checkpoint/index.js';
import { connectionFrom, platformOptions, prepareOnline } from '../api-command.js';
import { CliError } from '../exit.js';
import { formatPlan, planJson } from '../format/plan.js';
import { LOCALE_OPTION, readersOf, TZ_OPTION } from '../format/time.js';
import { storeOptions, withJobStore } from '../store-root.js';

interface PlanFlags {
  offline?: boolean;
  channelType?: string;
  json?: boolean;
  stateDir?: string;
  store?: string;
  baseUrl?: string;
  tokenFile?: string;
  forceChanged?: boolean;
  tz?: string;
  locale?: string;
}

export function registerPlan(program: Command): void {
  platformOptions(
    storeOptions(
      program
        .command('plan')
        .description('Dry run: check the job against the platform and show what would be sent to whom (sends nothing)')
        .argument('<job>', 'job file (JSON)')
        .option('--offline', 'skip the platform checks (no token needed); give --channel-type')
        .option('--channel-type <type>', 'with --offline: the channel type, wba, whatsapp or ww')
        .option('--json', 'print the plan as one JSON object'),
    ),
  )
    .option('--force-changed', 'preview the new content of a job whose message changed since its checkpoint started (as `run --force-changed` would send it)')
    .option(...TZ_OPTION)
    .option(...LOCALE_OPTION)
    .action(async (jobPath: string, flags: PlanFlags) => {
      readersOf(flags); // a wrong --tz or --locale is told before anything is read
      const { plan, zone } = await withJobStore(flags, jobPath, async (store) => {
        const prepared = await prepareFor(jobPath, flags, store);
        return { plan: await planJob(prepared, { store, forceChanged: flags.forceChanged === true, host: hostname() }), zone: zoneOfJob(prepared.job) };
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(planJson(plan), null, 2)}\n`);
      else process.stdout.write(formatPlan(plan, readersOf(flags, zone)));
      if (plan.tooManyRejects) throw new AppError(plan.tooManyRejects, 'invalid');
    });
}

async function prepareFor(jobPath: string, flags: PlanFlags, store: StateStore): Promise<Prepared> {
  if (!flags.offline) return prepareOnline(jobPath, await connectionFrom(flags), store);
  const type = flags.channelType;
  if (type !== undefined && type !== 'wba' && type !== 'whatsapp' && type !== 'ww') {
    throw new CliError(`--channel-type: "${type}" is not a channel type; use wba, whatsapp or ww`);
  }
  return prepare(jobPath, type === undefined ? {} : { offlineChannelType: type satisfies ChannelType }, { store });
}
