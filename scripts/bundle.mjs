// The command line bundled (run by `npm run build`, after tsc): dist/src/cli/run-cli.js and what it
// imports, each command's modules a chunk of their own (a command is still loaded only when named),
// written to dist/bundle/. A fresh process then reads a handful of files instead of ~300 modules, which
// is most of what a short command such as `status` spent. dist/src/cli/main.js runs it when present.
// The packages below stay outside it, loaded from node_modules as before: they find their own files at
// run time (pino, libphonenumber-geo-carrier), require modules they may not have (pg, bottleneck), or
// are large and used only by the commands that send (undici).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/bundle');
const EXTERNAL = ['pg', 'pgpass', 'pg-native', 'pino', 'undici', 'bottleneck', 'libphonenumber-geo-carrier'];

await rm(out, { recursive: true, force: true });
let rolldown;
try {
  ({ rolldown } = await import('rolldown'));
} catch (err) {
  // Without the bundler (a platform it has no build for), the modules in dist/src run as they are.
  process.stderr.write(`outreach build: the command line is not bundled (rolldown cannot be loaded: ${err instanceof Error ? err.message : String(err)}); it runs from dist/src, slower to start\n`);
  process.exit(0);
}
// A worker thread's module (src/**/*-worker.ts) is started by a URL beside the module that starts it: in
// the bundle that module is a chunk, so the worker is an entry of its own among the chunks, by its name.
const workers = (await readdir(path.join(root, 'dist/src'), { recursive: true })).filter((f) => f.endsWith('-worker.js'));
const input = { 'run-cli': path.join(root, 'dist/src/cli/run-cli.js') };
for (const file of workers) input[`chunks/${path.basename(file, '.js')}`] = path.join(root, 'dist/src', file);
const bundle = await rolldown({
  input,
  platform: 'node',
  // ESM builds where a package has one (jsonc-parser's main is a UMD module a bundle cannot follow).
  resolve: { mainFields: ['module', 'main'] },
  external: (id) => id.startsWith('node:') || EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
  logLevel: 'silent',
});
await bundle.write({
  dir: out,
  format: 'esm',
  entryFileNames: (chunk) => (chunk.name === 'run-cli' ? '[name].mjs' : '[name].js'),
  chunkFileNames: 'chunks/[name]-[hash].mjs',
  // Without whitespace and comments (a fifth less to compile on start), names kept for a bug's stack.
  minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
});
await bundle.close();
