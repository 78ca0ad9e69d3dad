import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_STATUSES, passMetrics, publisher, pushGroup, receiverMetrics, runMetrics, writeTextfile } from '../../src/metrics/index.js';
import { waitFor } from '../helpers/wait.js';
import { checkMetrics, promtoolBin, pushgatewayBin, samples, skipWithout, startPushgateway, type RunningPushgateway } from '../helpers/prometheus-tools.js';

/** A run's metrics with a value in every family, as a run that sent, failed and ended fills them. */
function filledRun(campaign = 'promo') {
  const m = runMetrics();
  for (const status of CONTACT_STATUSES) m.contacts.set({ campaign, status }, 3);
  m.messagesSent.inc({ campaign, channel: '10' }, 5);
  m.providerErrors.inc({ campaign, class: 'undeliverable' });
  m.sendRate.set({ campaign, channel: '10' }, 4.5);
  m.rateAsked.set({ campaign, channel: '10' }, 5);
  m.lastSuccess.set({ campaign }, 1_767_000_000);
  m.duration.set({ campaign }, 12.5);
  m.messagingLimitRemaining.set({ company: '1' }, 240);
  m.messagingLimit.set({ company: '1' }, 250);
  m.optOuts.inc({ source: 'provider' });
  return m;
}

describe.skipIf(skipWithout(promtoolBin, 'prometheus'))('the metrics text, as promtool reads it', () => {
  it('passes `promtool check metrics` for a run, the receiver, track and sync, every family filled', async () => {
    const receiver = receiverMetrics();
    receiver.deliveries.inc({ result: 'accepted' });
    receiver.storeUp.set(1);
    const track = passMetrics('track');
    track.lastSuccess.set({ campaign: 'promo' }, 1_767_000_000);
    track.duration.set({ campaign: 'promo' }, 2);
    const sync = passMetrics('sync');
    sync.lastSuccess.set(1_767_000_000);
    sync.duration.set(1);
    sync.optOuts.inc({ source: 'reply_keyword' });
    for (const registry of [filledRun().registry, receiver.registry, track.registry, sync.registry]) {
      const text = await registry.metrics();
      const check = await checkMetrics(text);
      expect(check.output, text).toBe('');
      expect(check.code).toBe(0);
    }
  });

  it('passes it as well before anything is counted (families with no series yet)', async () => {
    for (const registry of [runMetrics().registry, receiverMetrics().registry, passMetrics('sync').registry]) {
      const check = await checkMetrics(await registry.metrics());
      expect(check.output).toBe('');
      expect(check.code).toBe(0);
    }
  });
});

describe('the metric names', () => {
  it('are the documented ones, with the campaign as a label of its own (never job or instance)', async () => {
    const text = await filledRun().registry.metrics();
    const names = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(names).toEqual([
      'outreach_contacts gauge',
      'outreach_messages_sent_total counter',
      'outreach_provider_errors_total counter',
      'outreach_send_rate_per_second gauge',
      'outreach_rate_asked_per_second gauge',
      'outreach_run_last_success_timestamp_seconds gauge',
      'outreach_run_duration_seconds gauge',
      'outreach_messaging_limit_remaining gauge',
      'outreach_messaging_limit gauge',
      'outreach_optouts_total counter',
    ]);
    expect(text).not.toMatch(/\b(job|instance)="/);
    expect(samples(text, 'outreach_contacts').map((s) => s.labels.status)).toEqual([...CONTACT_STATUSES]);
  });

  it("starts the receiver's delivery counter at 0 for every result, spooled included", async () => {
    const text = await receiverMetrics().registry.metrics();
    expect(samples(text, 'outreach_webhook_events_total')).toEqual(
      ['accepted', 'duplicate', 'bad_signature', 'invalid', 'failed', 'spooled'].map((result) => ({ labels: { result }, value: 0 })),
    );
  });
});

describe('the textfile for node_exporter', () => {
  let dir: string;
  let umask: number;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-textfile-'));
    umask = process.umask(0o077);
  });
  afterAll(async () => {
    process.umask(umask);
    await rm(dir, { recursive: true, force: true });
  });

  it('replaces the file whole, readable by the collector (0644) whatever the umask, leaving no temporary file', async () => {
    const file = path.join(dir, 'outreach.prom');
    await writeFile(file, 'old\n', { mode: 0o600 });
    await writeTextfile(file, 'outreach_store_up 1\n');
    expect(await readFile(file, 'utf8')).toBe('outreach_store_up 1\n');
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    expect(await readdir(dir)).toEqual(['outreach.prom']);
  });

  it('fails without leaving a temporary file when the folder is not there', async () => {
    await expect(writeTextfile(path.join(dir, 'missing', 'x.prom'), 'x 1\n')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual(['outreach.prom']);
  });
});

describe.skipIf(skipWithout(pushgatewayBin, 'prometheus-pushgateway'))('pushing to a real Pushgateway', () => {
  let gateway: RunningPushgateway;
  beforeAll(async () => {
    gateway = await startPushgateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it("replaces only its own group: another campaign's series stay", async () => {
    await pushGroup(gateway.url, filledRun('a').registry, { campaign: 'a' });
    await pushGroup(gateway.url, filledRun('b').registry, { campaign: 'b' });
    const again = runMetrics();
    again.contacts.set({ campaign: 'a', status: 'sent' }, 7);
    await pushGroup(gateway.url, again.registry, { campaign: 'a' });
    const sent = samples(await gateway.scrape(), 'outreach_contacts').filter((s) => s.labels.status === 'sent');
    expect(sent.map((s) => [s.labels.campaign, s.labels.job, s.value]).sort()).toEqual([
      ['a', 'outreach', 7],
      ['b', 'outreach', 3],
    ]);
  });

  it('keeps the last success when a later push of the group has none (a failed run)', async () => {
    const ok = filledRun('c');
    ok.lastSuccess.set({ campaign: 'c' }, 1_700_000_000);
    await pushGroup(gateway.url, ok.registry, { campaign: 'c' });
    const failed = runMetrics();
    failed.duration.set({ campaign: 'c' }, 99);
    await pushGroup(gateway.url, failed.registry, { campaign: 'c' });
    const text = await gateway.scrape();
    expect(samples(text, 'outreach_run_last_success_timestamp_seconds').find((s) => s.labels.campaign === 'c')?.value).toBe(1_700_000_000);
    expect(samples(text, 'outreach_run_duration_seconds').find((s) => s.labels.campaign === 'c')?.value).toBe(99);
  });
});

describe('the publisher', () => {
  it('publishes every `everyMs` once started, and no more once stopped', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-publish-'));
    const m = passMetrics('sync');
    let refreshed = 0;
    const pub = publisher(m.registry, { file: path.join(dir, 'sync.prom') }, { grouping: {}, everyMs: 10, refresh: async () => void (refreshed += 1), report: () => undefined });
    pub.start();
    await waitFor(() => refreshed >= 3);
    await pub.stop();
    const then = refreshed;
    await new Promise((r) => setTimeout(r, 50));
    expect(refreshed).toBe(then);
  });

  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refreshes the values before it writes, and tells a failing target without throwing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-publish-'));
    const m = runMetrics();
    const errors: string[] = [];
    let n = 0;
    const file = path.join(dir, 'run.prom');
    const pub = publisher(m.registry, { file, pushgateway: 'http://127.0.0.1:1' }, {
      grouping: { campaign: 'promo' },
      refresh: async () => void m.duration.set({ campaign: 'promo' }, ++n),
      report: (target, err) => void (err !== undefined && errors.push(target)),
    });
    await pub.publish();
    await pub.publish();
    await pub.stop();
    expect(samples(await readFile(file, 'utf8'), 'outreach_run_duration_seconds')).toEqual([{ labels: { campaign: 'promo' }, value: 2 }]);
    expect(errors).toEqual(['pushgateway', 'pushgateway']);
  });
});
