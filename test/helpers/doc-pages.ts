/**
 * The user's pages: README.md and every guide in docs/, read as GitHub shows them (its heading
 * anchors, its links relative to the page).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';

export interface DocPage {
  /** The page's path from the repository's root, with forward slashes: "README.md", "docs/pools.md". */
  name: string;
  text: string;
}

/** README.md first, then docs/*.md by name. */
export function docPages(): DocPage[] {
  const guides = readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...guides].map((name) => ({ name, text: readFileSync(path.join(repoRoot, name), 'utf8') }));
}

/** The page's text outside fenced code blocks (a `#` line in a shell block is no heading, a `](x)` in one no link). */
export function prose(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ''));
}

/** GitHub's anchors for the page's headings: lower case, punctuation dropped but hyphens and underscores, spaces as hyphens, a repeated one numbered -1, -2… */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const plain = (heading ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

export interface DocLink {
  page: string;
  line: number;
  /** As written: "docs/pools.md#a-pool", "#exit-codes", "https://…". */
  target: string;
}

/** Every markdown link of the page outside code blocks, with its line. */
export function linksOf(page: DocPage): DocLink[] {
  const lines = prose(page.text).split('\n');
  return lines.flatMap((l, i) => [...l.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ page: page.name, line: i + 1, target: m[1] ?? '' })));
}
