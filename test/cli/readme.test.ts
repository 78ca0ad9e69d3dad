import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { docPages } from '../helpers/doc-pages.js';

/** Flags the pages name that belong to other programs (systemctl, kubectl, node_exporter), or that they name as ones outreach has not (--dry-run). */
const NOT_OURS = new Set(['--now', '--dry-run', '--from-file', '--collector']);
/** Flags every command has. */
const EVERYWHERE = new Set(['--help', '--version']);

/** Each command (a subcommand as "suppress add") with the long flags it takes, read from the program itself. */
async function commandFlags(): Promise<Map<string, Set<string>>> {
  const commands = new Map<string, Set<string>>();
  const flags = (c: Command) => new Set(c.options.map((o) => o.long).filter((f): f is string => f !== undefined && !EVERYWHERE.has(f)));
  for (const c of (await buildProgram()).commands) {
    if (c.commands.length === 0) commands.set(c.name(), flags(c));
    for (const sub of c.commands) commands.set(`${c.name()} ${sub.name()}`, flags(sub));
  }
  return commands;
}

const commands = await commandFlags();
const pages = docPages();
const commandsPage = pages.find((p) => p.name === 'docs/commands.md')?.text ?? '';
/** Pages written for the project's developers, which name tools' flags of their own. */
const FOR_DEVELOPERS = new Set(['docs/architecture.md', 'docs/assumptions.md']);
const userPages = pages.filter((p) => !FOR_DEVELOPERS.has(p.name));

/** docs/commands.md's line for a command in its table. */
function tableLine(name: string): string | undefined {
  return commandsPage.split('\n').find((l) => l.startsWith(`| \`outreach ${name} `) || l.startsWith(`| \`outreach ${name}\``));
}

describe('docs/commands.md and the program agree', () => {
  it('finds the commands', () => {
    expect([...commands.keys()].sort()).toEqual([
      'channels', 'console', 'demo', 'plan', 'reconcile', 'report', 'resume', 'run', 'show', 'sim', 'status', 'stop',
      'store import', 'store migrate', 'suppress add', 'suppress import', 'suppress list', 'suppress remove', 'sync', 'templates', 'track', 'webhook',
    ]);
  });

  it('lists every command with every one of its flags in the Commands table', () => {
    for (const [name, flags] of commands) {
      const line = tableLine(name);
      expect(line, `docs/commands.md has no row for ${name}`).toBeDefined();
      for (const flag of flags) expect(line, `docs/commands.md's row for ${name} lacks ${flag}`).toContain(flag);
    }
  });

  it('flags in a table row belong to that command', () => {
    for (const [name, flags] of commands) {
      const inRow = [...(tableLine(name) ?? '').matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      for (const flag of inRow) expect(flags.has(flag), `docs/commands.md's row for ${name} has ${flag}, which it does not take`).toBe(true);
    }
  });
});

describe('the README and the guides', () => {
  it('name no command that does not exist', () => {
    const known = new Set([...commands.keys()].map((k) => k.split(' ')[0]));
    for (const page of userPages) {
      const named = new Set([...page.text.matchAll(/(?:npx |`|\| `)outreach ([a-z][a-z-]*)/g)].map((m) => m[1] ?? ''));
      for (const name of named) expect(known.has(name), `${page.name} names "outreach ${name}"`).toBe(true);
    }
  });

  it('name no flag that no command has', () => {
    const all = new Set([...commands.values()].flatMap((s) => [...s]));
    for (const page of userPages) {
      const named = new Set([...page.text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
      for (const flag of named) {
        if (NOT_OURS.has(flag) || EVERYWHERE.has(flag)) continue;
        expect(all.has(flag), `${page.name} names ${flag}, which no command has`).toBe(true);
      }
    }
  });
});
