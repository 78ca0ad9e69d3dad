import type { Registry } from 'prom-client';
import { pushGroup } from './push.js';
import { writeTextfile } from './textfile.js';

/** Where a one-shot command's metrics go: a node_exporter textfile, a Pushgateway group, or both. */
export interface MetricsTargets {
  /** The textfile (`--metrics-file`, OUTREACH_METRICS_FILE), replaced whole at each write. */
  file?: string;
  /** The Pushgateway's URL (`--pushgateway`, OUTREACH_PUSHGATEWAY). */
  pushgateway?: string;
}

/** A step of a publish: bringing the values up to date, writing the textfile, pushing. */
export type PublishStep = 'refresh' | 'file' | 'pushgateway';

/** How often a command that runs writes and pushes its metrics while it runs. */
export const PUBLISH_EVERY_MS = 15_000;

export interface Publisher {
  /** Writes and pushes now (after `refresh`); each target's outcome is told to `report`, a failure never thrown. */
  publish(): Promise<void>;
  /** Publishes every `everyMs` until `stop`. */
  start(): void;
  /** No more periodic publishing; resolves once a publish under way has ended. */
  stop(): Promise<void>;
}

/**
 * Publishes a registry to its targets: `refresh` brings the values up to date first; each step's
 * outcome goes to `report` (an error, or none when it worked: the command goes on either way, metrics
 * never stop a campaign). Publishes never overlap: a tick that comes while one is under way is skipped.
 */
export function publisher(
  registry: Registry,
  targets: MetricsTargets,
  options: {
    grouping: Readonly<Record<string, string>>;
    refresh?: () => Promise<void>;
    report: (target: PublishStep, err?: unknown) => void;
    everyMs?: number;
  },
): Publisher {
  let current: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function once(): Promise<void> {
    const step = (target: PublishStep, work: Promise<void>) =>
      work.then(
        () => options.report(target),
        (err: unknown) => options.report(target, err),
      );
    if (options.refresh) await step('refresh', options.refresh());
    const text = await registry.metrics();
    await Promise.all([
      targets.file !== undefined ? step('file', writeTextfile(targets.file, text)) : undefined,
      targets.pushgateway !== undefined ? step('pushgateway', pushGroup(targets.pushgateway, registry, options.grouping)) : undefined,
    ]);
  }

  const publish = async (): Promise<void> => {
    while (current) await current;
    current = once().finally(() => (current = undefined));
    return current;
  };

  return {
    publish,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (!current) void publish();
      }, options.everyMs ?? PUBLISH_EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      if (current) await current;
    },
  };
}
