import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { jobReport } from '../../src/app/index.js';
import { provided } from '../provider/helpers.js';

/** The number a `data-metric` of the page shows. */
function metric(html: string, name: string): number {
  const m = new RegExp(`data-metric="${name}"[^>]*>([\\d,]+)<`).exec(html);
  if (!m?.[1]) throw new Error(`no data-metric="${name}" in the page`);
  return Number(m[1].replace(/,/g, ''));
}

describe('report.html', () => {
  it("counts as suppressed the suppression list's entries that concern the job, a 131050 refusal at send included, each once", async () => {
    const p = await provided({ rows: 6 });
    const [, refused, before, after] = p.phones;
    p.sim.state.stopMarketing(refused!); // the provider refuses the first message with 131050
    await p.store.suppress([
      { phone: before!, reason: 'asked by phone', source: 'manual' },
      { phone: '+5511955550000', reason: 'not in this job', source: 'import' },
    ]);
    await p.run();
    await p.store.suppress([{ phone: after!, reason: 'STOP', source: 'reply_keyword' }]); // sent, then said stop
    await p.store.suppress([{ phone: before!, reason: 'again, by hand', source: 'manual' }]); // already on the list: once

    const { file } = await jobReport(p.campaign.jobFile, { store: p.store, format: 'html', zone: 'UTC' });
    const html = await readFile(file, 'utf8');
    expect((await p.states()).get(refused!)).toMatchObject({ status: 'failed', code: 131050 });
    expect(metric(html, 'suppressed')).toBe(3);
    expect(html).toContain('3 contacts of this job are on the suppression list');
  });

  it("draws sends against the most sends the job's rate allows, both in sends, and labels which is which", async () => {
    const p = await provided({ rows: 4, job: { rate: { per_second: 200, concurrency: 8 }, after_send: { tags: ['bf-2026', 'vip'] } } });
    await p.run();
    const { file } = await jobReport(p.campaign.jobFile, { store: p.store, format: 'html', zone: 'UTC' });
    const html = await readFile(file, 'utf8');
    const section = /<section id="sends">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain('<h2>Sends per second</h2>');
    // 200 requests a second, and each send takes at least 3 (the message and two tags): at most 66 sends a second.
    expect(section).toMatch(/data-metric="send_limit" data-unit="sends per second">66</);
    expect(section).toMatch(/data-metric="rate_limit" data-unit="requests per second">200</);
    expect(section).toContain('each send takes at least 3 requests');
    const titles = [...section.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.every((t) => /: \d+ sends per second$/.test(t!))).toBe(true);
  });

  it('shows its times in the zone asked for, naming it', async () => {
    const p = await provided({ rows: 2 });
    await p.run();
    const { file } = await jobReport(p.campaign.jobFile, { store: p.store, format: 'html', zone: 'Asia/Kolkata', clock: () => Date.parse('2026-01-15T10:00:00.000Z') });
    const html = await readFile(file, 'utf8');
    expect(html).toContain('made 2026-01-15 15:30 Asia/Kolkata');
    expect(html).not.toMatch(/ UTC</);
    expect(html).toMatch(/<figcaption><span>[\d\- :–]+ Asia\/Kolkata<\/span>/);
  });
});
