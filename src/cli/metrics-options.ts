import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { MetricsTargets, PublishStep } from '../metrics/index.js';
import { CliError } from './exit.js';

/** `--metrics-file`, the same on every one-shot command (`run`, `resume`, `track`, `sync`). */
export const METRICS_FILE_OPTION = [
  '--metrics-file <file>',
  "write its metrics for node_exporter's textfile collector to this .prom file, at the end and every 15 s (default $OUTREACH_METRICS_FILE)",
] as const;

/** `--pushgateway`, the same on every one-shot command. */
export const PUSHGATEWAY_OPTION = ['--pushgateway <url>', 'push its metrics to this Prometheus Pushgateway, at the end and every 15 s (default $OUTREACH_PUSHGATEWAY)'] as const;

export interface MetricsFlags {
  metricsFile?: string;
  pushgateway?: string;
}

/**
 * Where the command's metrics go, from the flags, else OUTREACH_METRICS_FILE / OUTREACH_PUSHGATEWAY;
 * undefined when nowhere. A file whose folder is not there, a name the collector would not read, or
 * a URL that is not http(s) is refused in one sentence (exit 2) before anything is done.
 */
export async function metricsTargets(flags: MetricsFlags, env: NodeJS.ProcessEnv = process.env): Promise<MetricsTargets | undefined> {
  const file = given(flags.metricsFile, '--metrics-file', env.OUTREACH_METRICS_FILE, 'OUTREACH_METRICS_FILE');
  const gateway = given(flags.pushgateway, '--pushgateway', env.OUTREACH_PUSHGATEWAY, 'OUTREACH_PUSHGATEWAY');
  if (file === undefined && gateway === undefined) return undefined;
  return {
    ...(file !== undefined && { file: await checkedFile(file.value, file.from) }),
    ...(gateway !== undefined && { pushgateway: checkedUrl(gateway.value, gateway.from) }),
  };
}

function given(flag: string | undefined, flagName: string, fromEnv: string | undefined, envName: string): { value: string; from: string } | undefined {
  if (flag !== undefined && flag !== '') return { value: flag, from: flagName };
  return fromEnv !== undefined && fromEnv !== '' ? { value: fromEnv, from: envName } : undefined;
}

async function checkedFile(file: string, from: string): Promise<string> {
  const full = path.resolve(file);
  if (!full.endsWith('.prom')) throw new CliError(`${from} ${file}: node_exporter's textfile collector reads only files whose name ends in .prom; name it e.g. outreach-${path.basename(full).replace(/\.[^.]*$/, '')}.prom`);
  const folder = path.dirname(full);
  const isFolder = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new CliError(`${from} ${file}: the folder ${folder} is not there; create it (node_exporter's --collector.textfile.directory, e.g. /var/lib/prometheus/node-exporter) or name a file in another one`);
  return full;
}

function checkedUrl(value: string, from: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError(`${from}: "${shownUrl(value)}" is not the address of a Pushgateway; give it as http://host:9091`);
  }
  return value;
}

/** A URL for people: its password, if it has one, masked. */
export function shownUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}

/**
 * A target's failure, logged when it starts failing and when it works again (not every 15 s between):
 * metrics never stop a command, and a person reading run.log sees when monitoring went blind.
 */
export function metricsReport(targets: MetricsTargets, logger: Logger): (step: PublishStep, err?: unknown) => void {
  const failing = new Set<PublishStep>();
  const where = (step: PublishStep) =>
    step === 'file' ? `the metrics file ${targets.file ?? ''}` : step === 'pushgateway' ? `the Pushgateway ${shownUrl(targets.pushgateway ?? '')}` : 'the counts for the metrics';
  return (step, err) => {
    if (err === undefined) {
      if (failing.delete(step)) logger.info({ event: 'metrics_recovered', target: step }, `${where(step)}: written again`);
      return;
    }
    if (failing.has(step)) return;
    failing.add(step);
    const why = err instanceof Error ? err.message : String(err);
    logger.warn({ event: 'metrics_failed', target: step }, `could not ${step === 'refresh' ? 'read' : 'write'} ${where(step)}: ${why}; the command goes on, and tries again in 15 s`);
  };
}
