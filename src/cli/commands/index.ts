import type { Command } from 'commander';
import { registerChannels } from './channels.js';
import { registerConsole } from './console.js';
import { registerDemo } from './demo.js';
import { registerPlan } from './plan.js';
import { registerReconcile } from './reconcile.js';
import { registerReport } from './report.js';
import { registerRun } from './run.js';
import { registerShow } from './show.js';
import { registerSim } from './sim.js';
import { registerStatus } from './status.js';
import { registerStop } from './stop.js';
import { registerStore } from './store.js';
import { registerSuppress } from './suppress.js';
import { registerSync } from './sync.js';
import { registerTemplates } from './templates.js';
import { registerTrack } from './track.js';
import { registerWebhook } from './webhook.js';

/** Every command, in the order `outreach --help` lists them: the campaign's way first, then the tools around it. */
export function registerCommands(program: Command): void {
  registerPlan(program);
  registerRun(program); // run and resume
  registerStatus(program);
  registerStop(program);
  registerReport(program);
  registerSuppress(program);
  registerTrack(program);
  registerReconcile(program);
  registerShow(program);
  registerChannels(program);
  registerTemplates(program);
  registerWebhook(program);
  registerSync(program);
  registerConsole(program);
  registerStore(program);
  registerSim(program);
  registerDemo(program);
}
