/**
 * The throughput baseline: autocannon (programmatic, in this process) POSTing start-whatsapp at the
 * simulator, a new valid phone per request so each one creates a client, a conversation and a
 * message, exactly the work the executor's first sends cause.
 */
import autocannon from 'autocannon';
import { benchPhone, WBA } from './fixtures.js';
import { cpuSeconds } from './measure.js';
import type { SimProcess } from './sim-process.js';

export const START_PATH = '/chat/conversations/start-whatsapp';

export interface CannonResult {
  /** Answers 2xx per second of autocannon's run. */
  reqPerSec: number;
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** CPU seconds this process used meanwhile. */
  cpuSeconds: number;
}

/** Phones from `firstPhone` on, one per request. */
export async function cannon(sim: SimProcess, connections: number, seconds: number, firstPhone: number): Promise<CannonResult> {
  let next = firstPhone;
  const body = (phone: string) =>
    JSON.stringify({
      channel_id: WBA.id,
      phone,
      name: 'Ana',
      send_type: 'template',
      template_name: 'promo_bf',
      language: 'pt_BR',
      variables: { '1': 'Ana', '2': 'BF1' },
    });
  const cpu = cpuSeconds();
  const result = await autocannon({
    url: `${sim.url}${START_PATH}`,
    method: 'POST',
    connections,
    pipelining: 1,
    duration: seconds,
    headers: { authorization: `Bearer ${sim.token}`, accept: 'application/json', 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: body(benchPhone(next++)) }) }],
  });
  return {
    reqPerSec: result['2xx'] / result.duration,
    requests: result['2xx'],
    seconds: result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    cpuSeconds: cpuSeconds() - cpu,
  };
}
