import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('outreach --help', () => {
  it('prints usage and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: outreach');
  });

  it('exits 2 on an unknown command', async () => {
    const r = await runCli(['no-such-command']);
    expect(r.code).toBe(2);
  });
});
