import { startSimulator, type RunningSimulator, type SimOptions, type SimState } from '../../src/sim/index.js';

/** 2025-11-28T12:00:00Z: a fixed simulated start. */
export const START = Date.UTC(2025, 10, 28, 12, 0, 0);
export const HOUR = 60 * 60 * 1000;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface Harness {
  sim: RunningSimulator;
  state: SimState;
  /** An API call with the simulator's token (unless `token` says otherwise; null sends none). */
  call(method: string, path: string, body?: unknown, init?: { token?: string | null; raw?: string }): Promise<Answer>;
  /** start-whatsapp with defaults: channel 10, template welcome en_US for Ana. */
  start(fields?: Record<string, unknown>): Promise<Answer>;
}

const running: RunningSimulator[] = [];

export async function harness(options: SimOptions = {}): Promise<Harness> {
  const sim = await startSimulator({ seed: 42, startTime: START, ...options });
  running.push(sim);
  const call: Harness['call'] = async (method, path, body, init = {}) => {
    const headers: Record<string, string> = {};
    const token = init.token === undefined ? sim.token : init.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined = init.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${sim.url}${path}`, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    sim,
    state: sim.state,
    call,
    start: (fields = {}) =>
      call('POST', '/chat/conversations/start-whatsapp', {
        channel_id: 10,
        phone: '+5511999990001',
        send_type: 'template',
        name: 'Ana',
        template_name: 'welcome',
        language: 'en_US',
        variables: { '1': 'Ana' },
        ...fields,
      }),
  };
}

export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}
