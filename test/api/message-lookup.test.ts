import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, findMessage, type ApiClient } from '../../src/api/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';

let sim: RunningSimulator;
let api: ApiClient;
afterEach(async () => {
  await api?.close();
  await sim?.close();
});

describe('findMessage (C7)', () => {
  it('reads one message by id with after_id = id - 1 and limit 1, and answers undefined for a message of another conversation', async () => {
    sim = await startSimulator({ seed: 1 });
    api = createApiClient({ baseUrl: sim.url, token: sim.token });
    const a = sim.state.inbound('+5511970000001', 'oi');
    const b = sim.state.inbound('+5511970000002', 'olá');
    sim.state.inbound('+5511970000001', 'de novo');
    const found = await findMessage(api, a.conversation_id, a.message_id);
    expect(found).toMatchObject({ id: a.message_id, content: 'oi' });
    expect(sim.state.requests.at(-1)?.query).toEqual({ after_id: String(a.message_id - 1), limit: '1' });
    expect(await findMessage(api, a.conversation_id, b.message_id)).toBeUndefined();
  });
});
