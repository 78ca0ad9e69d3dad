import type { Command } from 'commander';

type Registrar = (program: Command) => void;

/**
 * Every command, in the order `outreach --help` lists them (the campaign's way first, then the tools
 * around it), each module loaded only when it is registered: a command started by name loads its own
 * module alone, not the others' (their libraries cost a fresh process time and memory: status, report).
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Registrar> }> = [
  { names: ['plan'], load: async () => (await import('./plan.js')).registerPlan },
  { names: ['run', 'resume'], load: async () => (await import('./run.js')).registerRun },
  { names: ['status'], load: async () => (await import('./status.js')).registerStatus },
  { names: ['stop'], load: async () => (await import('./stop.js')).registerStop },
  { names: ['report'], load: async () => (await import('./report.js')).registerReport },
  { names: ['suppress'], load: async () => (await import('./suppress.js')).registerSuppress },
  { names: ['track'], load: async () => (await import('./track.js')).registerTrack },
  { names: ['reconcile'], load: async () => (await import('./reconcile.js')).registerReconcile },
  { names: ['show'], load: async () => (await import('./show.js')).registerShow },
  { names: ['channels'], load: async () => (await import('./channels.js')).registerChannels },
  { names: ['templates'], load: async () => (await import('./templates.js')).registerTemplates },
  { names: ['webhook'], load: async () => (await import('./webhook.js')).registerWebhook },
  { names: ['sync'], load: async () => (await import('./sync.js')).registerSync },
  { names: ['console'], load: async () => (await import('./console.js')).registerConsole },
  { names: ['store'], load: async () => (await import('./store.js')).registerStore },
  { names: ['sim'], load: async () => (await import('./sim.js')).registerSim },
  { names: ['demo'], load: async () => (await import('./demo.js')).registerDemo },
];

/** Registers the command named `name` alone when there is one by that name, else every command (help, a misspelt command). */
export async function registerCommands(program: Command, name?: string): Promise<void> {
  const named = COMMANDS.find((c) => name !== undefined && c.names.includes(name));
  for (const command of named ? [named] : COMMANDS) (await command.load())(program);
}
