import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JobError, loadJob, parseJob } from '../../src/job/index.js';
import { tempDir, writeFiles } from './tmp.js';

/** A valid job as JSON text without its closing brace, so a test can append fields as written in a file. */
const OPEN = '{"name":"bf","contacts":"c.csv","company_id":1,"message":{"text":"hi"}';
const TOP_FIELDS =
  '"$schema", "name", "contacts", "follow_up", "company_id", "channel_id", "default_country", "columns", "input", "message", ' +
  '"experiment", "conversation", "after_send", "rate", "retry", "window", "limits", "send_window", "default_timezone", "require_opt_in", "track", "start_at", "test_to"';

/** parseJob of a job file's text, as loadJob reads it. */
function parseText(text: string) {
  return parseJob(JSON.parse(text));
}

function problemsOf(text: string): string[] {
  const result = parseText(text);
  if (result.ok) throw new Error(`expected the job to be refused, got ${JSON.stringify(result.job)}`);
  return result.problems;
}

describe('a job file with keys that reach a prototype', () => {
  it('refuses "__proto__" at the top level as an unknown field, and reads no setting from it', () => {
    expect(problemsOf(`${OPEN},"__proto__":{"channel_id":10}}`)).toEqual([
      `unknown field "__proto__"; remove it (the fields here are ${TOP_FIELDS})`,
      'channel_id: is missing; add the id of the channel to send through, e.g. "channel_id": 10 (`outreach channels --company-id N` lists them)',
    ]);
  });

  it('refuses "__proto__" inside a settings object instead of taking its rate', () => {
    expect(problemsOf(`${OPEN},"channel_id":10,"rate":{"__proto__":{"per_second":999}}}`)).toEqual([
      'rate: unknown field "__proto__"; remove it (the fields here are "per_second", "per_minute", "concurrency", "max_concurrency", "timeout_s", "http2")',
    ]);
  });

  it.each([
    ['constructor at the top level', `${OPEN},"channel_id":10,"constructor":{"x":1}}`, `unknown field "constructor"; remove it (the fields here are ${TOP_FIELDS})`],
    ['prototype in message', `${OPEN},"channel_id":10,"message":{"text":"hi","prototype":"x"}}`, 'message: unknown field "prototype"; remove it (the fields here are "template", "text", "prefer", "media", "variants")'],
    [
      'constructor as a custom-field key',
      `${OPEN},"channel_id":10,"after_send":{"custom_fields":{"constructor":"x"}}}`,
      'after_send.custom_fields: unknown field "constructor"; remove it or rename it ("__proto__", "constructor" and "prototype" are never field names)',
    ],
    [
      '__proto__ as a custom-field key',
      `${OPEN},"channel_id":10,"after_send":{"custom_fields":{"__proto__":"x"}}}`,
      'after_send.custom_fields: unknown field "__proto__"; remove it or rename it ("__proto__", "constructor" and "prototype" are never field names)',
    ],
    [
      '__proto__ among template variables',
      `${OPEN},"channel_id":10,"message":{"template":{"name":"promo","language":"pt_BR","variables":{"__proto__":{"1":"x"}}}}}`,
      'message.template.variables: unknown field "__proto__"; remove it or rename it ("__proto__", "constructor" and "prototype" are never field names)',
    ],
    [
      'prototype in an object inside a list',
      `${OPEN},"channel_id":10,"contacts":[{"prototype":1}]}`,
      'contacts[0]: unknown field "prototype"; remove it or rename it ("__proto__", "constructor" and "prototype" are never field names)',
    ],
  ])('refuses %s, naming the path', (_what, text, expected) => {
    expect(problemsOf(text)[0]).toBe(expected);
  });

  it('accepts the same job without the key', () => {
    expect(parseText(`${OPEN},"channel_id":10,"rate":{"per_second":5}}`).ok).toBe(true);
  });
});

describe('a polluted Object.prototype', () => {
  const polluted = Object.prototype as Record<string, unknown>;
  afterEach(() => {
    delete polluted.channel_id;
    delete polluted.per_second;
  });

  it('supplies no setting the job file leaves out', () => {
    polluted.channel_id = 10;
    polluted.per_second = 999;
    const missing = parseJob(JSON.parse(OPEN + '}'));
    const rate = parseJob(JSON.parse(`${OPEN},"channel_id":10}`));
    delete polluted.channel_id;
    delete polluted.per_second;
    expect(missing.ok).toBe(false);
    expect(missing).toEqual({
      ok: false,
      problems: [
        'channel_id: is missing; add the id of the channel to send through, e.g. "channel_id": 10 (`outreach channels --company-id N` lists them)',
      ],
    });
    expect(rate).toMatchObject({ ok: true, job: { rate: { per_second: 10 } } });
  });
});

describe('a job nested far deeper than any field', () => {
  it('names the line and column of a file nested 100,000 levels deep, without a stack overflow', async () => {
    const dir = await tempDir();
    const depth = 100_000;
    await writeFiles(dir, { 'deep.json': `{"name":\n${'['.repeat(depth)}${']'.repeat(depth)}}` });
    const err = await loadJob(path.join(dir, 'deep.json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobError);
    expect((err as JobError).problems).toEqual([
      'line 2, column 32: objects and lists nest more than 32 levels deep here, which no job field does; see jobs/black-friday.json',
    ]);
  });

  it('refuses a parsed value nested 100,000 levels deep by its path', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const result = parseJob({ name: 'bf', columns: deep });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toBe(
      `columns${'.a'.repeat(31)}: nests objects and lists more than 32 levels deep, which no job field does; see jobs/black-friday.json`,
    );
  });

  it('loads a job file that refuses "__proto__" with the file named, as other unknown fields', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'bf.json');
    await writeFiles(dir, { 'bf.json': `${OPEN},"channel_id":10,"window":{"__proto__":{}}}` });
    const err = await loadJob(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobError);
    expect((err as JobError).message).toBe(`${file}: window: unknown field "__proto__"; remove it (the fields here are "safety_margin_minutes")`);
  });
});
