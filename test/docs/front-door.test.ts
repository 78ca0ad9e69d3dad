import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { repoRoot } from '../helpers/cli.js';
import { anchorsOf, docPages, linksOf } from '../helpers/doc-pages.js';

const pages = docPages();

/** The words of a shell line as the shell splits them (quotes kept together), up to a comment, a pipe, a redirection or a second command. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"[^"]*"|'[^']*'|[^\s]+/g)) {
    const w = m[0];
    if (w === '#' || w.startsWith('#') || /^(\||&&|;|\|\||[0-9]?>>?|<)/.test(w)) break;
    words.push(w.replace(/^["']|["']$/g, ''));
  }
  return words;
}

/** Every `outreach …` command shown in a code block of the pages, where it is. */
function commandLines(): Array<{ where: string; args: string[] }> {
  const found: Array<{ where: string; args: string[] }> = [];
  for (const page of pages) {
    for (const m of page.text.matchAll(/^```(sh|bash|console|)\n([\s\S]*?)^```$/gm)) {
      const startLine = page.text.slice(0, m.index).split('\n').length;
      (m[2] ?? '').split('\n').forEach((raw, i) => {
        const line = raw.replace(/^\$ /, '');
        const at = /^(?:npx |sudo -u \S+ |\/usr\/local\/bin\/|\$\(npm prefix -g\)\/bin\/)?outreach(?= |$)/.exec(line);
        if (!at) return;
        found.push({ where: `${page.name}:${startLine + 1 + i}`, args: shellWords(line.slice(at[0].length)) });
      });
    }
  }
  return found;
}

/** Every command of ours. */
const program = await buildProgram();

/** Why the arguments would not parse as a command of ours: an unknown command or flag, a missing argument; else undefined. */
function parseProblem(args: string[]): string | undefined {
  let cmd: Command = program;
  let i = 0;
  if (args.length === 0 || args[0] === '--help' || args[0] === '--version') return undefined;
  for (; i < args.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === args[i]);
    if (!sub) break;
    cmd = sub;
  }
  if (cmd.commands.length > 0) return `"${args.slice(0, i + 1).join(' ')}" is no command`;
  const positionals: string[] = [];
  for (let j = i; j < args.length; j++) {
    const a = args[j] ?? '';
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const name = a.split('=')[0] ?? a;
    if (name === '--help') return undefined;
    const option = cmd.options.find((o) => o.long === name || o.short === name);
    if (!option) return `${cmd.name()} takes no ${name}`;
    const next = args[j + 1];
    if (option.required && !a.includes('=')) j++;
    else if (option.optional && !a.includes('=') && next !== undefined && !next.startsWith('-')) j++;
  }
  const declared = cmd.registeredArguments;
  const required = declared.filter((d) => d.required).length;
  if (positionals.length < required) return `${cmd.name()} needs ${required} argument(s), the line gives ${positionals.length}`;
  if (!declared.some((d) => d.variadic) && positionals.length > declared.length) return `${cmd.name()} takes ${declared.length} argument(s), the line gives ${positionals.length}`;
  return undefined;
}

describe('the README, a front door to the guides in docs/', () => {
  it('is at most 400 lines', () => {
    const readme = pages.find((p) => p.name === 'README.md');
    expect(readme?.text.split('\n').length).toBeLessThanOrEqual(400);
  });

  it('links, with the guides, only to files and headings the repository has, never outside it', () => {
    const anchors = new Map(pages.map((p) => [p.name, anchorsOf(p.text)]));
    const broken: string[] = [];
    for (const page of pages) {
      for (const { line, target } of linksOf(page)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? page.name : path.posix.normalize(path.posix.join(path.posix.dirname(page.name), file));
        if (resolved.startsWith('..')) broken.push(`${page.name}:${line} ${target} is outside the repository`);
        else if (!existsSync(path.join(repoRoot, resolved))) broken.push(`${page.name}:${line} ${target}: no such file`);
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchors.get(resolved)?.has(anchor)) broken.push(`${page.name}:${line} ${target}: ${resolved} has no such heading`);
      }
      if (/\.\.\/shared\/|\/work\/(?:shared|main|wt)/.test(page.text)) broken.push(`${page.name} names a place outside the repository`);
    }
    expect(broken).toEqual([]);
  });

  it('shows only outreach command lines that parse: the command, its flags and its arguments exist', () => {
    const lines = commandLines();
    expect(lines.length).toBeGreaterThan(30);
    const wrong = lines.flatMap(({ where, args }) => {
      const problem = parseProblem(args);
      return problem === undefined ? [] : [`${where} outreach ${args.join(' ')}: ${problem}`];
    });
    expect(wrong).toEqual([]);
  });

  it('points at every guide in docs/ from its table of guides', () => {
    const readme = pages.find((p) => p.name === 'README.md')?.text ?? '';
    const developers = new Set(['docs/architecture.md', 'docs/assumptions.md']);
    for (const page of pages) {
      if (page.name === 'README.md' || developers.has(page.name)) continue;
      expect(readme, `README.md does not point at ${page.name}`).toContain(`](${page.name})`);
    }
  });
});

describe('a failure the checks above catch', () => {
  it('are found: an unknown flag, an unknown command and a missing argument', () => {
    expect(parseProblem(['run', 'jobs/x.json', '--dry-run'])).toBe('run takes no --dry-run');
    expect(parseProblem(['launch', 'jobs/x.json'])).toBe('"launch" is no command');
    expect(parseProblem(['suppress', 'drop', '+55'])).toBe('"suppress drop" is no command');
    expect(parseProblem(['show', 'jobs/x.json'])).toBe('show needs 2 argument(s), the line gives 1');
    expect(parseProblem(['run', 'jobs/x.json', '--test-to'])).toBeUndefined();
  });
});
