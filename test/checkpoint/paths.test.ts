import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { globalStatePaths, jobStatePaths } from '../../src/checkpoint/file/index.js';

describe('state paths', () => {
  it('knows every file of the state folder', () => {
    expect(jobStatePaths('/s', 'promo')).toEqual({
      dir: path.join('/s', 'promo'),
      checkpoint: path.join('/s', 'promo', 'checkpoint.jsonl'),
      lock: path.join('/s', 'promo', 'lock'),
      runLog: path.join('/s', 'promo', 'run.log'),
      report: path.join('/s', 'promo', 'report.csv'),
      rejects: path.join('/s', 'promo', 'rejects.csv'),
      summary: path.join('/s', 'promo', 'summary.json'),
      planRejects: path.join('/s', 'promo', 'plan-rejects.json'),
      listing: path.join('/s', 'promo', 'listing.bin'),
      notes: path.join('/s', 'promo', 'notes.json'),
    });
  });

  it('puts the webhook files at the top of the state folder', () => {
    expect(globalStatePaths('/s')).toEqual({
      events: path.join('/s', 'events.jsonl'),
      window: path.join('/s', 'window.json'),
      sync: path.join('/s', 'sync.json'),
      suppressions: path.join('/s', 'suppressions.jsonl'),
      ledger: path.join('/s', 'ledger.jsonl'),
      budgetHolds: path.join('/s', 'budget-holds.json'),
      budgetLock: path.join('/s', 'budget-holds.lock'),
    });
  });
});
