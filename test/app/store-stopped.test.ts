/**
 * The sentence of a run the store stopped: why, that nothing more was sent, and each step after it
 * once, in order: reconcile the contacts that were in flight, then resume.
 */
import { describe, expect, it } from 'vitest';
import { storeStopped } from '../../src/app/run/store-stopped.js';
import { StoreUnavailableError, StoreWriteError } from '../../src/checkpoint/index.js';

const down = new StoreWriteError(
  'could not write the journal of job "promo" to the store (database outreach on db:5432): the connection was refused, and it was still unreachable after 30 s',
  'check that the database is up and that this host reaches it',
  { then: 'run the command again (`outreach resume` for a run)' },
);

describe('a run stopped by its store', () => {
  it('says resume once when nothing was in flight', () => {
    expect(storeStopped(down, 0).message).toBe(
      'could not write the journal of job "promo" to the store (database outreach on db:5432): the connection was refused, and it was still unreachable after 30 s; nothing more was sent: check that the database is up and that this host reaches it, then run `outreach resume`',
    );
  });

  it('says reconcile, then resume, each once, when contacts were in flight', () => {
    const { message, kind } = storeStopped(down, 3);
    expect(kind).toBe('aborted');
    expect(message).toMatch(/; nothing more was sent: check that the database is up and that this host reaches it, then run `outreach reconcile` \(it settles the 3 contacts whose requests were in flight\), then `outreach resume`$/);
    expect(message.match(/outreach resume/g)).toHaveLength(1);
    expect(storeStopped(down, 1).message).toContain('(it settles the contact whose request was in flight)');
  });

  it('reads as one sentence after a fix that ends with its own semicolon, and for a store that could not be read', () => {
    const refused = new StoreUnavailableError('the store (database outreach on db:5432) refused us: the database role r may not use schema s', 'as the owner of the store\'s tables, run GRANT USAGE ON SCHEMA s TO r;');
    expect(refused.message).toMatch(/TO r; then run again$/);
    expect(storeStopped(refused, 0).message).toMatch(/; nothing more was sent: as the owner of the store's tables, run GRANT USAGE ON SCHEMA s TO r; then run `outreach resume`$/);
  });
});
