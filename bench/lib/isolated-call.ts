/**
 * Calls one exported bench function in this process and exits: argv[2] the module's file URL,
 * argv[3] the export's name, argv[4] its argument as JSON (for a step timed from outside).
 */
const [moduleUrl, exportName, argJson] = process.argv.slice(2);
const mod = (await import(moduleUrl ?? '')) as Record<string, unknown>;
const fn = mod[exportName ?? ''];
if (typeof fn !== 'function') throw new Error(`${moduleUrl} has no exported function ${exportName}`);
await (fn as (arg: unknown) => Promise<unknown>)(JSON.parse(argJson ?? '{}'));
