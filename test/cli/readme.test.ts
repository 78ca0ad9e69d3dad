import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';

/** Flags in the README that belong to other programs (systemctl), or that it names as ones outreach has not (--dry-run). */
const NOT_OURS = new Set(['--now', '--dry-run']);
/** Flags every command has. */
const EVERYWHERE = new Set(['--help', '--version']);

let readme: string;
const commands = new Map<string, Set<string>>();

beforeAll(async () => {
  readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const top = await runCli(['--help']);
  const names = [...top.stdout.matchAll(/^ {2}([a-z-]+)(?: \[options\]| <| {2,})/gm)].map((m) => m[1]!);
  const flagsOf = (help: string) => new Set([...help.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z-]+)/gm)].map((m) => m[1]!).filter((f) => !EVERYWHERE.has(f)));
  // Every --help at once: one after another they take longer than a hook may on a busy machine.
  const helps = await Promise.all(names.map(async (name) => {
    const help = (await runCli([name, '--help'])).stdout;
    // A command with subcommands (suppress add|remove|import|list): each has its own row.
    const subs = [...(help.split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}([a-z-]+) (?:\[options\]|<)/gm)].map((m) => m[1]!);
    const subHelps = await Promise.all(subs.map(async (sub) => [`${name} ${sub}`, (await runCli([name, sub, '--help'])).stdout] as const));
    return { name, help, subHelps };
  }));
  for (const { name, help, subHelps } of helps) {
    if (subHelps.length === 0) commands.set(name, flagsOf(help));
    for (const [key, subHelp] of subHelps) commands.set(key, flagsOf(subHelp));
  }
}, 120_000);

/** The README's line for a command in its Commands table. */
function tableLine(name: string): string | undefined {
  return readme.split('\n').find((l) => l.startsWith(`| \`outreach ${name} `) || l.startsWith(`| \`outreach ${name}\``));
}

describe('README and --help agree', () => {
  it('finds the commands', () => {
    expect([...commands.keys()].sort()).toEqual([
      'channels', 'console', 'demo', 'plan', 'reconcile', 'report', 'resume', 'run', 'show', 'sim', 'status', 'stop',
      'store import', 'store migrate', 'suppress add', 'suppress import', 'suppress list', 'suppress remove', 'sync', 'templates', 'track', 'webhook',
    ]);
  });

  it('lists every command with every one of its flags in the Commands table', () => {
    for (const [name, flags] of commands) {
      const line = tableLine(name);
      expect(line, `README has no Commands row for ${name}`).toBeDefined();
      for (const flag of flags) expect(line, `README's row for ${name} lacks ${flag}`).toContain(flag);
    }
  });

  it('names no command that does not exist', () => {
    const named = new Set([...readme.matchAll(/(?:npx |`|\| `)outreach ([a-z][a-z-]*)/g)].map((m) => m[1]!));
    const known = new Set([...commands.keys()].map((k) => k.split(' ')[0]));
    for (const name of named) expect(known.has(name), `README names "outreach ${name}"`).toBe(true);
  });

  it('names no flag that no command has', () => {
    const all = new Set([...commands.values()].flatMap((s) => [...s]));
    const named = new Set([...readme.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
    for (const flag of named) {
      if (NOT_OURS.has(flag) || EVERYWHERE.has(flag)) continue;
      expect(all.has(flag), `README names ${flag}, which no command has`).toBe(true);
    }
  });

  it('flags in a table row belong to that command', () => {
    for (const [name, flags] of commands) {
      const line = tableLine(name)!;
      const inRow = [...line.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      for (const flag of inRow) expect(flags.has(flag), `README's row for ${name} has ${flag}, which it does not take`).toBe(true);
    }
  });
});
