import { describe, expect, it } from 'vitest';
import { isoText } from '../../src/time/iso.js';
import { startBody } from '../../src/run/index.js';
import { testJob } from '../helpers/run.js';

const contact = { file: 'c.csv', line: 2, phone: '+5511987654321', name: 'Ana', lastname: 'Silva', vars: {} };

describe('startBody', () => {
  it("carries the contact's names and the job's conversation fields when they are given, and nothing for those that are not", () => {
    const job = testJob({ conversation: { topic: 'Black Friday', pipeline_id: 3, pipeline_stage_id: 7 } });
    const template = { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana' } };
    expect(startBody(job, contact, { kind: 'template', template }, 14)).toEqual({
      channel_id: 14,
      phone: '+5511987654321',
      name: 'Ana',
      lastname: 'Silva',
      topic: 'Black Friday',
      pipeline_id: 3,
      pipeline_stage_id: 7,
      send_type: 'template',
      template_name: 'promo_bf',
      language: 'pt_BR',
      variables: { '1': 'Ana' },
    });
    const bare = startBody(testJob(), { file: 'c.csv', line: 2, phone: '+5511987654321', vars: {} }, { kind: 'text', text: 'Oi' });
    expect(bare).toEqual({ channel_id: 10, phone: '+5511987654321', send_type: 'text', text: 'Oi' });
    expect(Object.keys(bare)).not.toContain('name');
  });

  it('puts inline media on a text body', () => {
    const media = { content_type: 'image', url: 'https://example.com/a.png', file_name: 'a.png' };
    expect(startBody(testJob(), contact, { kind: 'text', text: 'Oi', inlineMedia: media })).toMatchObject({ send_type: 'text', text: 'Oi', content_type: 'image', file_url: 'https://example.com/a.png', file_name: 'a.png' });
  });
});

describe('isoText', () => {
  it('writes each instant as its own ISO time, also when the same instant comes again and again', () => {
    const t = Date.parse('2026-11-26T12:00:00.000Z');
    expect([isoText(t), isoText(t), isoText(t + 1), isoText(t), isoText(t + 60_000)]).toEqual([
      '2026-11-26T12:00:00.000Z',
      '2026-11-26T12:00:00.000Z',
      '2026-11-26T12:00:00.001Z',
      '2026-11-26T12:00:00.000Z',
      '2026-11-26T12:01:00.000Z',
    ]);
  });
});
