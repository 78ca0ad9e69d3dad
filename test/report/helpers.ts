import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ContactState } from '../../src/checkpoint/index.js';

const dirs: string[] = [];

export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-report-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A state made of any fields (a fixture: the fields of one status or another, as a test needs). */
export function state(phone: string, extra: Record<string, unknown> = {}): ContactState {
  return { phone, status: 'sent', attempts: 1, followups: {}, ...extra } as ContactState;
}

export function states(...list: ContactState[]): Map<string, ContactState> {
  return new Map(list.map((s) => [s.phone, s]));
}
