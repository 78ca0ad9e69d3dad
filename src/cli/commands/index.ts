import type { Command } from 'commander';
import { registerChannels } from './channels.js';
import { registerSim } from './sim.js';
import { registerSync } from './sync.js';
import { registerTemplates } from './templates.js';
import { registerWebhook } from './webhook.js';

/** Every command, in the order `outreach --help` lists them. */
export function registerCommands(program: Command): void {
  registerChannels(program);
  registerTemplates(program);
  registerWebhook(program);
  registerSync(program);
  registerSim(program);
}
