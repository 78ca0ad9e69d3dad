import { describe, expect, it } from 'vitest';
import { requestMeter } from '../../src/cli/request-meter.js';
import type { CheckpointEvent } from '../../src/checkpoint/index.js';

const AT = '2026-01-01T00:00:00.000Z';
const attempt = (phone: string, channel?: number): CheckpointEvent => ({ t: 'attempt', phone, via: 'start', action: 'template', ...(channel !== undefined && { channel_id: channel }), at: AT });
const step = (phone: string, extra: Partial<Extract<CheckpointEvent, { t: 'followup' }>> = {}): CheckpointEvent => ({ t: 'followup', phone, step: 'tag:vip', ok: true, at: AT, ...extra });

describe('the requests a run sends, counted from its journal', () => {
  it('counts each first message tried (retries too) and each after-send step once, not the marker before a media step', () => {
    const meter = requestMeter('10');
    for (const e of [attempt('+1'), attempt('+1'), step('+1'), step('+1', { step: 'media', ok: false, attempt: true }), step('+1', { step: 'media' })]) meter.note(e);
    meter.note({ t: 'sent', phone: '+1', via: 'start', action: 'template', conversation_id: 'c', message_id: 'm', at: AT });
    expect(meter.total()).toBe(4);
    expect(meter.of('10')).toBe(4);
  });

  it("puts a pool's after-send steps on the number the contact's first message went from", () => {
    const meter = requestMeter('10');
    for (const e of [attempt('+1', 10), attempt('+2', 11), step('+2'), step('+1'), step('+2')]) meter.note(e);
    expect([meter.of('10'), meter.of('11'), meter.total()]).toEqual([2, 3, 5]);
  });
});
