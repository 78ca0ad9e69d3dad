/**
 * Every test gets a home of its own: HOME and the XDG state and config folders point into a fresh
 * temporary folder before each test, so that the account's store of "this user" (~/.local/state/outreach,
 * or $XDG_STATE_HOME/outreach) is never the real user's, and two tests never share one. The CLI's child
 * processes inherit it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach } from 'vitest';

function freshHome(): void {
  const home = mkdtempSync(path.join(tmpdir(), 'outreach-home-'));
  process.env.HOME = home;
  process.env.XDG_STATE_HOME = path.join(home, '.local', 'state');
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  delete process.env.STATE_DIRECTORY;
}

freshHome();
beforeEach(freshHome);
