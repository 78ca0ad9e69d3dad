/**
 * A job's whole journal in the database (no snapshot) is folded straight into columns: the state is
 * the one reducer's, row by row, for generated journals of every event shape. Against the real test
 * cluster, in a schema of its own.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { applyEvent } from '../../../src/checkpoint/apply-event.js';
import { createPgStore, type PgStateStore } from '../../../src/checkpoint/backends.js';
import { parseEvent } from '../../../src/checkpoint/json-line.js';
import { loadPgJobState } from '../../../src/checkpoint/pg/job-state.js';
import { StateTable } from '../../../src/checkpoint/state-table.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';
import { journalText, minusZeroAsZero } from '../journal-text.js';

const pgUrl = inject('pgUrl');

describe.skipIf(!pgUrl)('a whole journal read from the database', () => {
  const stores: PgStateStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  for (const seed of [21, 22]) {
    it(`gives every contact, the counters, the header and the unreadable rows the one reducer gives (journal ${seed})`, async () => {
      const store = createPgStore(schemaUrl(pgUrl), { filesDir: '/nonexistent', leaseSeconds: 30 });
      stores.push(store);
      const { db } = store;
      await db.migrated();
      const rows = journalText(seed, 600)
        .split('\n')
        .filter((line) => line.trim() !== '');
      await db.query(`INSERT INTO ${db.s}.journal (job, phone, token, event) SELECT 'promo', NULL, 0, e FROM unnest($1::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n`, [rows]);

      const expected = new StateTable();
      let header: unknown;
      let unreadable = 0;
      for (const row of rows) {
        const event = parseEvent(row);
        if (event === undefined) unreadable += 1;
        else if (event.t === 'header') header = event;
        else applyEvent(expected, event);
      }
      const loaded = await loadPgJobState(db, 'promo');
      expect(minusZeroAsZero(new Map(loaded.state))).toEqual(minusZeroAsZero(new Map(expected)));
      const tallies = (t: StateTable) => t.tallies().map(({ state, count }) => `${count} ${JSON.stringify(state)}`).sort();
      expect(tallies(loaded.state)).toEqual(tallies(expected));
      expect(loaded.header).toEqual(header);
      expect(loaded.tail).toBe(rows.length);
      expect(loaded.notices.length).toBe(unreadable > 0 ? 1 : 0);
      if (unreadable > 0) expect(loaded.notices[0]?.message).toContain(`${unreadable} journal row(s)`);
    });
  }
});
