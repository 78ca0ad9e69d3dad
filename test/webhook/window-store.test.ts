import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWindow, openWindowStore } from '../../src/checkpoint/file/index.js';

let dir: string;
let file: string;
const T = (iso: string) => Date.parse(iso);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-window-'));
  file = path.join(dir, 'window.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('window store', () => {
  it('keeps the latest inbound time per client and phone, never moving back', async () => {
    const store = await openWindowStore(file);
    store.noteInbound({ clientId: '1', at: T('2025-03-01T10:00:00Z') });
    store.noteInbound({ clientId: '1', at: T('2025-03-01T12:00:00Z') });
    store.noteInbound({ clientId: '1', at: T('2025-03-01T11:00:00Z') });
    expect(store.lastInboundByClient('1')).toBe(T('2025-03-01T12:00:00Z'));
    expect(store.lastInboundAt('+5511000000001')).toBeUndefined();

    store.linkPhone('1', '+5511000000001');
    expect(store.lastInboundByPhone('+5511000000001')).toBe(T('2025-03-01T12:00:00Z'));
    store.noteInbound({ clientId: '1', at: T('2025-03-01T13:00:00Z') });
    expect(store.lastInboundAt('+5511000000001')).toBe(T('2025-03-01T13:00:00Z'));
    await store.flush();

    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored).toEqual({
      v: 1,
      clients: { '1': '2025-03-01T13:00:00.000Z' },
      phones: { '+5511000000001': '2025-03-01T13:00:00.000Z' },
      links: { '1': '+5511000000001' },
    });
    expect((await loadWindow(file)).lastInboundAt('+5511000000001')).toBe(T('2025-03-01T13:00:00Z'));
  });

  it('merges what another process wrote meanwhile instead of overwriting it', async () => {
    const a = await openWindowStore(file);
    const b = await openWindowStore(file);
    a.noteInbound({ clientId: '1', phone: '+5511000000001', at: T('2025-03-01T10:00:00Z') });
    await a.flush();
    b.noteInbound({ clientId: '2', phone: '+5511000000002', at: T('2025-03-01T11:00:00Z') });
    b.noteInbound({ clientId: '1', at: T('2025-03-01T09:00:00Z') });
    await b.flush();
    const window = await loadWindow(file);
    expect(window.lastInboundAt('+5511000000001')).toBe(T('2025-03-01T10:00:00Z'));
    expect(window.lastInboundAt('+5511000000002')).toBe(T('2025-03-01T11:00:00Z'));
  });

  it('coalesces concurrent flushes, leaves no temp file and knows nothing from a missing file', async () => {
    expect((await loadWindow(file)).lastInboundAt('+5511000000001')).toBeUndefined();
    const store = await openWindowStore(file);
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      store.noteInbound({ clientId: String(i), at: T('2025-03-01T10:00:00Z') + i });
      flushes.push(store.flush());
    }
    await Promise.all(flushes);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).clients)).toHaveLength(20);
    expect(await readdir(dir)).toEqual(['window.json']);
  });

  it('refuses a damaged file with a message naming it and the fix', async () => {
    await writeFile(file, '{"v":1,"clients":');
    await expect(openWindowStore(file)).rejects.toThrow(/window\.json: not valid JSON; delete it/);
  });
});
