import { afterEach, describe, expect, it } from 'vitest';
import { Pool, type Dispatcher } from 'undici';
import { ConnectionError, createApiClient } from '../../src/api/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { rejection } from './helpers.js';

let sim: RunningSimulator | undefined;
let pool: RecordingPool | undefined;
afterEach(async () => {
  await pool?.close();
  await sim?.close();
});

/** A real pool to the simulator that records the options of every request dispatched to it. */
class RecordingPool extends Pool {
  readonly seen: Dispatcher.DispatchOptions[] = [];
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.seen.push(options);
    return super.dispatch(options, handler);
  }
}

const body = (phone: string) => ({ channel_id: 10, phone, send_type: 'template' as const, template_name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF1' } });

describe('the request path of the client', () => {
  it('hands each request to the pool with no abort signal of its own and the headers built once, the caller still able to abort', async () => {
    sim = await startSimulator({ seed: 7 });
    const recording = new RecordingPool(sim.url, { connections: 4 });
    pool = recording;
    const api = createApiClient({ baseUrl: sim.url, token: sim.token, dispatcher: recording });
    const run = new AbortController();
    const phones = ['+5511980000001', '+5511980000002', '+5511980000003'];
    const results = await Promise.all(phones.map((phone) => api.startWhatsapp(body(phone), { signal: run.signal })));

    expect(results.map((r) => typeof r.messageId)).toEqual(['number', 'number', 'number']);
    expect(recording.seen).toHaveLength(3);
    expect(recording.seen.map((o) => (o as { signal?: unknown }).signal)).toEqual([undefined, undefined, undefined]);
    expect(new Set(recording.seen.map((o) => o.headers)).size).toBe(1);
    for (const phone of phones) expect(sim.state.startWhatsappCount(phone)).toBe(1);

    run.abort(new Error('stop'));
    const err = await rejection(api.startWhatsapp(body('+5511980000004'), { signal: run.signal }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ sent: false, aborted: true });
  });
});
