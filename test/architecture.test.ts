import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const src = path.join(repoRoot, 'src');

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Every relative import of a file, as a path from src/ (`app/index.ts`). */
async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.relative(src, path.resolve(path.dirname(file), m[1] ?? '')).replace(/\.js$/, '.ts'));
}

const folderOf = (rel: string) => rel.split(path.sep)[0] ?? '';

/** checkpoint/'s modules that reach the backends: the store whole, and its parts the composition root loads (the database's only when the store is one). */
const BACKEND_DOORS = new Set(['backends.ts', 'backend-file.ts', 'backend-pg.ts', 'backend-url.ts']);

/** Every module of src/ and the modules it imports (static, type-only and dynamic imports alike), as paths from src/. */
async function importGraph(): Promise<Map<string, string[]>> {
  const all = await files(src);
  const known = new Set(all.map((f) => path.relative(src, f)));
  const graph = new Map<string, string[]>();
  for (const file of all) {
    const text = await readFile(file, 'utf8');
    const targets = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => {
      const base = path.relative(src, path.resolve(path.dirname(file), (m[1] ?? '').replace(/\.js$/, '')));
      return [`${base}.ts`, path.join(base, 'index.ts')].find((c) => known.has(c));
    });
    graph.set(path.relative(src, file), [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/**
 * What loading a module loads: the modules of src/ and the packages it imports at run time (a type-only
 * import or export, which TypeScript leaves out of the JavaScript, aside; dynamic imports included).
 */
async function loads(rel: string, options: { dynamic?: boolean } = {}): Promise<{ modules: string[]; packages: string[] }> {
  const file = path.join(src, rel);
  const source = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause;
      const typeOnly = node.isTypeOnly || (named !== undefined && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
    } else if (options.dynamic !== false && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const modules: string[] = [];
  const packages: string[] = [];
  for (const spec of specifiers) {
    if (!spec.startsWith('.')) {
      packages.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
      continue;
    }
    const base = path.relative(src, path.resolve(path.dirname(file), spec.replace(/\.js$/, '')));
    for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
      if (await readFile(path.join(src, candidate)).then(() => true, () => false)) {
        modules.push(candidate);
        break;
      }
    }
  }
  return { modules, packages };
}

/** Every module of src/ and every package that loading `entry` loads, itself included (`dynamic: false`: at once, an `import()` not followed). */
async function loadedBy(entry: string, options: { dynamic?: boolean } = {}): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const modules = new Set<string>([entry]);
  const packages = new Set<string>();
  for (const rel of modules) {
    const found = await loads(rel, options);
    for (const m of found.modules) modules.add(m);
    for (const p of found.packages) packages.add(p);
  }
  return { modules, packages };
}

/** The import cycles of a graph: its strongly connected components of more than one module (Tarjan's), each sorted. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the layout of docs/architecture.md holds', () => {
  it('keeps each command thin (120 lines at most) and importing no other command', async () => {
    const dir = path.join(src, 'cli', 'commands');
    for (const file of await files(dir)) {
      const text = await readFile(file, 'utf8');
      expect(text.trimEnd().split('\n').length, path.basename(file)).toBeLessThanOrEqual(120);
      if (path.basename(file) === 'index.ts') continue;
      for (const imported of await importsOf(file)) expect(imported.startsWith(path.join('cli', 'commands')), `${path.basename(file)} imports ${imported}`).toBe(false);
    }
  });

  it('lets only cli/, the console and the public index import app/, and nothing import cli/', async () => {
    for (const file of await files(src)) {
      const rel = path.relative(src, file);
      for (const imported of await importsOf(file)) {
        if (folderOf(imported) === 'app' && folderOf(rel) !== 'app') expect(['cli', 'console', 'index.ts'], `${rel} imports ${imported}`).toContain(folderOf(rel));
        if (folderOf(imported) === 'cli') expect(folderOf(rel), `${rel} imports ${imported}`).toBe('cli');
      }
    }
  });

  it('keeps the storage port free of any backend: only checkpoint/backends.ts reaches them, and the port exports nothing of theirs', async () => {
    const checkpoint = path.join(src, 'checkpoint');
    // The database backend reads the file backend's files only to import a state folder, and places the files for people as it does.
    const pgReadsFile = new Set([path.join('pg', 'import.ts'), path.join('pg', 'store.ts')]);
    for (const file of await files(checkpoint)) {
      const rel = path.relative(checkpoint, file);
      if (rel.startsWith(`file${path.sep}`) || BACKEND_DOORS.has(rel) || pgReadsFile.has(rel)) continue;
      for (const imported of await importsOf(file)) expect(imported.startsWith(path.join('checkpoint', 'file')), `checkpoint/${rel} imports ${imported}`).toBe(false);
      if (!rel.startsWith(`pg${path.sep}`)) for (const imported of await importsOf(file)) expect(imported.startsWith(path.join('checkpoint', 'pg')), `checkpoint/${rel} imports ${imported}`).toBe(false);
    }
    const index = await readFile(path.join(checkpoint, 'index.ts'), 'utf8');
    expect(index).not.toMatch(/from '\.\/(file|pg)\//);
  });

  it('keeps the state table\'s column layout inside the store: no file outside checkpoint/ imports state-columns.ts, and the port exports none of it', async () => {
    const layout = path.join('checkpoint', 'state-columns.ts');
    const graph = await importGraph();
    for (const [rel, imported] of graph) if (folderOf(rel) !== 'checkpoint') expect(imported, `${rel} imports ${layout}; read the states through the port's capabilities (ContactStates)`).not.toContain(layout);
    const index = await readFile(path.join(src, 'checkpoint', 'index.ts'), 'utf8');
    expect(index, 'checkpoint/index.ts re-exports the column layout').not.toMatch(/from '\.\/state-columns\.js'/);
    for (const file of await files(src)) {
      if (folderOf(path.relative(src, file)) === 'checkpoint') continue;
      expect(await readFile(file, 'utf8'), `${path.relative(src, file)} names the column layout`).not.toMatch(/import[^;]*\b(ColumnRows|Columns)\b[^;]*from '[./]*checkpoint\//);
    }
  });

  it('loads neither backend nor node-postgres for a module of the run path: only the composition root opens one', async () => {
    for (const entry of [path.join('checkpoint', 'index.ts'), path.join('run', 'deliver.ts'), path.join('app', 'run', 'run-job.ts')]) {
      const { modules, packages } = await loadedBy(entry);
      const backends = [...modules].filter((m) => m.startsWith(path.join('checkpoint', 'file') + path.sep) || m.startsWith(path.join('checkpoint', 'pg') + path.sep) || m === path.join('checkpoint', 'backends.ts'));
      expect(backends, `loading ${entry} loads`).toEqual([]);
      expect([...packages].filter((p) => p.startsWith('pg')), `loading ${entry} loads`).toEqual([]);
    }
  });

  it('lets only the composition root (cli/store-root.ts and the URL reader it calls) and the public index load checkpoint/backends.ts and its parts', async () => {
    const allowed = new Set([path.join('cli', 'store-root.ts'), path.join('cli', 'store-url.ts'), 'index.ts']);
    for (const file of await files(src)) {
      const rel = path.relative(src, file);
      if (allowed.has(rel) || folderOf(rel) === 'checkpoint') continue;
      const { modules } = await loads(rel);
      for (const door of BACKEND_DOORS) expect(modules, `${rel} loads checkpoint/${door}; take the store from ${path.join('cli', 'store-root.ts')}`).not.toContain(path.join('checkpoint', door));
    }
  });

  it('loads node-postgres for the status command only when the store is a database: its modules import neither it nor the database backend statically', async () => {
    for (const entry of [path.join('cli', 'commands', 'status.ts'), path.join('cli', 'store-root.ts')]) {
      const { modules, packages } = await loadedBy(entry, { dynamic: false });
      expect([...modules].filter((m) => m.startsWith(path.join('checkpoint', 'pg') + path.sep) && m !== path.join('checkpoint', 'pg', 'url.ts')), `loading ${entry} loads`).toEqual([]);
      expect([...packages].filter((p) => p === 'pg'), `loading ${entry} loads`).toEqual([]);
    }
    // The check sees the database backend when it is imported statically.
    expect((await loadedBy(path.join('checkpoint', 'backends.ts'), { dynamic: false })).packages).toContain('pg');
  });

  it('loads the contact loader for status and report only when they read the list: their modules import neither the loader, the phone parse nor csv-parse statically', async () => {
    const loader = [path.join('contacts', 'load.ts'), path.join('contacts', 'phone.ts')];
    for (const entry of [path.join('cli', 'commands', 'status.ts'), path.join('cli', 'commands', 'report.ts')]) {
      const { modules, packages } = await loadedBy(entry, { dynamic: false });
      expect([...packages].filter((p) => p === 'csv-parse'), `loading ${entry} loads`).toEqual([]);
      expect([...modules].filter((m) => loader.includes(m) || m.startsWith(path.join('app', 'audience') + path.sep)), `loading ${entry} loads`).toEqual([]);
    }
    // The check sees the loader when it is imported statically.
    const audience = await loadedBy(path.join('app', 'audience', 'index.ts'), { dynamic: false });
    expect(audience.packages.has('csv-parse') && loader.every((m) => audience.modules.has(m))).toBe(true);
  });

  it('lets no folder but the store reach the file backend, and keeps sim/, api/, locale/, time/, files/, metrics/ and rate-share/ apart', async () => {
    for (const file of await files(src)) {
      const rel = path.relative(src, file);
      for (const imported of await importsOf(file)) {
        if (imported.startsWith(path.join('checkpoint', 'file'))) expect(folderOf(rel), `${rel} imports ${imported}`).toBe('checkpoint');
        if (folderOf(rel) === 'sim') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('sim');
        if (folderOf(rel) === 'api') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('api');
        if (folderOf(rel) === 'locale') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('locale');
        if (folderOf(rel) === 'time') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('time');
        if (folderOf(rel) === 'files') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('files');
        if (folderOf(rel) === 'metrics') expect(['metrics', 'files'], `${rel} imports ${imported}`).toContain(folderOf(imported));
        if (folderOf(rel) === 'rate-share') expect(folderOf(imported), `${rel} imports ${imported}`).toBe('rate-share');
        if (folderOf(rel) === 'plan') expect(['plan', 'job', 'contacts'], `${rel} imports ${imported}`).toContain(folderOf(imported));
      }
    }
  });

  it('opens the store in one place: only cli/store-root.ts calls a backend\'s opener (the store itself and the public index aside)', async () => {
    const openers = ['createFileStore', 'createPgStore'];
    const root = path.join('cli', 'store-root.ts');
    for (const file of await files(src)) {
      const rel = path.relative(src, file);
      if (rel === root || rel === 'index.ts' || folderOf(rel) === 'checkpoint') continue;
      const text = await readFile(file, 'utf8');
      for (const opener of openers) expect(text.includes(opener), `${rel} names ${opener}; open the store with openStore from ${root}`).toBe(false);
    }
    const rootText = await readFile(path.join(src, root), 'utf8');
    for (const opener of openers) expect(rootText, `${root} opens the store with ${opener}`).toMatch(new RegExp(`\\b${opener}\\(`));
  });

  it('gives every folder of app/ an index whose first line says its purpose in one /** … */ comment', async () => {
    const app = path.join(src, 'app');
    const folders = (await readdir(app, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      const index = await readFile(path.join(app, folder, 'index.ts'), 'utf8').catch(() => undefined);
      expect(index, `app/${folder}/ has no index.ts`).toBeDefined();
      expect(index?.split('\n')[0] ?? '', `app/${folder}/index.ts's first line`).toMatch(/^\/\*\* \S.* \*\/$/);
    }
  });

  it('lets a file of app/ reach another folder of app/ through that folder\'s index only', async () => {
    const appFolderOf = (rel: string): string | undefined => {
      const parts = rel.split(path.sep);
      return parts[0] === 'app' && parts.length > 2 ? parts[1] : undefined;
    };
    for (const file of await files(path.join(src, 'app'))) {
      const rel = path.relative(src, file);
      for (const imported of await importsOf(file)) {
        const folder = appFolderOf(imported);
        if (folder === undefined || folder === appFolderOf(rel)) continue;
        expect(imported, `${rel} imports ${imported}`).toBe(path.join('app', folder, 'index.ts'));
      }
    }
  });

  it('has no import cycle anywhere in src/: arrows only point down', async () => {
    expect(cyclesOf(await importGraph()).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('finds a cycle when there is one (the check above is not blind)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('builds the platform client in its composition root only: cli/api-root.ts calls createApiClient (the client itself and the public index aside)', async () => {
    const root = path.join('cli', 'api-root.ts');
    for (const file of await files(src)) {
      const rel = path.relative(src, file);
      if (rel === root || rel === 'index.ts' || folderOf(rel) === 'api') continue;
      expect(/\bcreateApiClient\(/.test(await readFile(file, 'utf8')), `${rel} calls createApiClient; get the client from openApi in ${root}`).toBe(false);
    }
    expect(await readFile(path.join(src, root), 'utf8')).toMatch(/\bcreateApiClient\(/);
  });
});
