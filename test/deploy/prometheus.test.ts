import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { passMetrics, receiverMetrics, runMetrics } from '../../src/metrics/index.js';
import { repoRoot } from '../helpers/cli.js';
import { promtool, promtoolBin, skipWithout } from '../helpers/prometheus-tools.js';

const DIR = path.join(repoRoot, 'deploy', 'prometheus');

/** Every metric name outreach exposes, and the series Prometheus and the Pushgateway add. */
function knownNames(): Set<string> {
  const ours = [runMetrics(), receiverMetrics(), passMetrics('track'), passMetrics('sync')].flatMap((m) => m.registry.getMetricsAsArray().map((x) => x.name));
  return new Set([...ours, 'up', 'push_time_seconds']);
}

/** The metric names an expression reads (words before `{`, `[`, `)` or an operator that are not functions, keywords or labels). */
function namesIn(expr: string): string[] {
  return [...expr.matchAll(/\b((?:outreach|up|push_time)[a-z_]*)\b(?!\s*\()/g)].map((m) => m[1] ?? '').filter((n) => !['outreach'].includes(n));
}

interface Dashboard {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
}

describe.skipIf(skipWithout(promtoolBin, 'prometheus'))('the Prometheus files of deploy/prometheus/', () => {
  it('pass `promtool check rules` and `promtool check config`', async () => {
    expect(await promtool(['check', 'rules', path.join(DIR, 'outreach.rules.yml')])).toMatchObject({ code: 0 });
    expect(await promtool(['check', 'config', path.join(DIR, 'prometheus.yml')])).toMatchObject({ code: 0 });
  });

  it('fire each alert on the series that should fire it, and not on the others (`promtool test rules`)', async () => {
    const result = await promtool(['test', 'rules', path.join(DIR, 'outreach.rules.test.yml')]);
    expect(result.output).toContain('SUCCESS');
    expect(result.code).toBe(0);
  });

  it('alert on the five things an operator asked for, on metric names outreach exposes', async () => {
    const text = await readFile(path.join(DIR, 'outreach.rules.yml'), 'utf8');
    const alerts = [...text.matchAll(/- alert: (\S+)\n\s+#[^\n]*\n(?:\s+#[^\n]*\n)*\s+expr: ([^\n]+)/g)].map((m) => ({ name: m[1] ?? '', expr: m[2] ?? '' }));
    expect(alerts.map((a) => a.name)).toEqual([
      'OutreachRunNoSuccess',
      'OutreachRunSlowerThanAsked',
      'OutreachRunStuck',
      'OutreachContactsInDoubt',
      'OutreachMessagingLimitNearlySpent',
      'OutreachWebhookDown',
      'OutreachWebhookUnhealthy',
      'OutreachStoreUnreachable',
    ]);
    const known = knownNames();
    for (const a of alerts) for (const name of namesIn(a.expr)) expect(known.has(name), `${a.name} reads ${name}`).toBe(true);
    expect(alerts.find((a) => a.name === 'OutreachRunNoSuccess')?.expr).toContain('26 * 3600');
    expect(alerts.find((a) => a.name === 'OutreachRunSlowerThanAsked')?.expr).toContain('0.8 * outreach_rate_asked_per_second');
  });

  it('has a Grafana dashboard whose every query is valid PromQL over metric names outreach exposes', async () => {
    const dashboard = JSON.parse(await readFile(path.join(DIR, 'grafana-dashboard.json'), 'utf8')) as Dashboard;
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    const known = knownNames();
    const used = new Set(exprs.flatMap((e) => namesIn(e.expr)));
    for (const name of used) expect(known.has(name), `the dashboard reads ${name}`).toBe(true);
    for (const name of ['outreach_contacts', 'outreach_send_rate_per_second', 'outreach_rate_asked_per_second', 'outreach_messaging_limit_remaining', 'outreach_webhook_events_total', 'outreach_store_up']) {
      expect(used.has(name), `the dashboard shows ${name}`).toBe(true);
    }
    // promtool has no PromQL checker of its own: each query, as a recording rule, goes through `check rules`.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-dashboard-'));
    try {
      const rules = exprs.map((e, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(e.expr.replaceAll('$campaign', '.*'))}`).join('\n');
      const file = path.join(dir, 'dashboard.rules.yml');
      await writeFile(file, `groups:\n  - name: dashboard\n    rules:\n${rules}\n`);
      const check = await promtool(['check', 'rules', file]);
      expect(check.output).toContain(`SUCCESS: ${exprs.length} rules found`);
      expect(check.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
