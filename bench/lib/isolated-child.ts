/**
 * Runs one exported bench function in a process of its own and sends back its result over IPC:
 * argv[2] the module's file URL, argv[3] the export's name, argv[4] its argument as JSON.
 */
import type { IsolatedAnswer } from './isolated.js';

const [moduleUrl, exportName, argJson] = process.argv.slice(2);

async function main(): Promise<IsolatedAnswer> {
  try {
    const mod = (await import(moduleUrl!)) as Record<string, unknown>;
    const fn = mod[exportName!];
    if (typeof fn !== 'function') return { ok: false, error: `${moduleUrl} has no exported function ${exportName}` };
    const value: unknown = await (fn as (arg: unknown) => Promise<unknown>)(JSON.parse(argJson ?? '{}'));
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}

const answer = await main();
process.send?.(answer, () => process.disconnect());
