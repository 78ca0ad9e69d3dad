import { describe, expect, it } from 'vitest';
import { outcomeJson } from '../../src/app/index.js';
import { provided, RESUME } from './helpers.js';

describe('opted_out (131050): failed, never retried, and the phone handed to the suppression list', () => {
  it('calls onOptedOut with the phone once, sends it nothing more, and lists it in the outcome', async () => {
    const p = await provided({ rows: 5 });
    const stopped = p.phones[1]!;
    p.sim.state.stopMarketing(stopped);
    const suppressed: Array<{ phone: string; reason: string }> = [];

    const outcome = await p.run({ onOptedOut: async (phone, reason) => void suppressed.push({ phone, reason }) });
    expect(suppressed).toEqual([{ phone: stopped, reason: expect.stringContaining('131050') }]);
    expect(outcome.optedOut).toEqual([stopped]);
    expect(outcomeJson(outcome).opted_out).toEqual([stopped]);
    expect(p.sendsTo(stopped)).toHaveLength(1);
    expect((await p.states()).get(stopped)).toMatchObject({ status: 'failed', retryable: false, code: 131050, errorClass: 'opted_out' });
    expect(outcome.thisRun.sent).toBe(4);

    await p.run({ command: 'resume', mode: RESUME, onOptedOut: async (phone, reason) => void suppressed.push({ phone, reason }) });
    expect(p.sendsTo(stopped)).toHaveLength(1);
    expect(suppressed).toHaveLength(1);
  });
});
