import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { unknownFlags } from './flags.js';

const UNITS = path.join(repoRoot, 'deploy', 'systemd');
let services: Map<string, Map<string, string[]>>;

/** A unit's [Service] settings: each key with its values in order (a key may be given more than once). */
function serviceSection(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let inService = false;
  for (const line of text.split('\n')) {
    if (/^\[.*\]$/.test(line)) inService = line === '[Service]';
    const m = /^(\w+)=(.*)$/.exec(line);
    if (inService && m) settings.set(m[1] ?? '', [...(settings.get(m[1] ?? '') ?? []), m[2] ?? '']);
  }
  return settings;
}

beforeAll(async () => {
  services = new Map();
  for (const name of (await readdir(UNITS)).filter((n) => n.endsWith('.service'))) services.set(name, serviceSection(await readFile(path.join(UNITS, name), 'utf8')));
});

describe('the systemd services of deploy/systemd/', () => {
  it('keep what they write to the owner (UMask=0077)', () => {
    for (const [name, s] of services) expect(s.get('UMask'), name).toEqual(['0077']);
  });

  it('bound each one-shot run before the next hour (TimeoutStartSec: RuntimeMaxSec does not apply to Type=oneshot) and restart the receiver on failure', () => {
    for (const [name, s] of services) {
      if (s.get('Type')?.[0] === 'oneshot') {
        expect(s.get('TimeoutStartSec'), name).toEqual(['50min']);
        expect(s.has('Restart'), name).toBe(false);
      } else {
        expect(s.get('Restart'), name).toEqual(['on-failure']);
      }
    }
  });

  it('call the installed binary with flags its commands take, and write their metrics for node_exporter', async () => {
    for (const [name, s] of services) {
      const [exec] = s.get('ExecStart') ?? [];
      const args = (exec ?? '').split(/\s+/);
      expect(args[0], name).toBe('/usr/local/bin/outreach');
      const { command, unknown } = await unknownFlags(args.slice(1));
      expect(unknown, `${name}: outreach ${command}`).toEqual([]);
      if (s.get('Type')?.[0] === 'oneshot') expect(args[args.indexOf('--metrics-file') + 1], name).toMatch(/^\/var\/lib\/prometheus\/node-exporter\/outreach-[^/]+\.prom$/);
    }
  });

  it('start the console on loopback, where it needs no token, and hold no token in the unit', () => {
    const console = services.get('outreach-console.service');
    expect(console?.get('ExecStart')).toEqual(['/usr/local/bin/outreach console --host 127.0.0.1 --port 8790']);
    expect(console?.get('User')).toEqual(services.get('outreach-webhook.service')?.get('User'));
    for (const [name, s] of services) for (const values of s.values()) for (const v of values) expect(v, name).not.toMatch(/OUTREACH_CONSOLE_TOKEN=/);
  });

  it('hand the database URL over as a credential OUTREACH_STORE_FILE names, never in the unit', () => {
    const job = services.get('outreach-job@.service');
    expect(job?.get('LoadCredential')).toEqual(['store-url:/etc/outreach/store-url']);
    expect(job?.get('Environment')).toEqual(['OUTREACH_STORE_FILE=%d/store-url']);
    for (const [name, s] of services) for (const values of s.values()) for (const v of values) expect(v, name).not.toMatch(/postgres(ql)?:\/\//);
  });
});
