#!/usr/bin/env node
import { existsSync } from 'node:fs';

/**
 * The command line's entry. The build also bundles it (scripts/bundle.mjs: dist/bundle/, a few files
 * instead of ~300 modules, which a fresh process loads in a fraction of the time): that bundle runs
 * when it is there, the modules beside this file otherwise.
 */
const bundled = new URL('../../bundle/run-cli.mjs', import.meta.url);
const { runCli } = (existsSync(bundled) ? await import(bundled.href) : await import('./run-cli.js')) as typeof import('./run-cli.js');
process.exitCode = await runCli(process.argv);
