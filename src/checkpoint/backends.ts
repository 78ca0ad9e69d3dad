/**
 * The store whole: the port (index.ts) and its two backends, the file backend (`file/`, through
 * backend-file.ts) and the PostgreSQL one (`pg/`, through backend-pg.ts; its URL reader through
 * backend-url.ts): their factories, the database URL's reader, `store migrate` and `store import`,
 * and the taking in of an earlier version's state folder. For the public index and tests; the
 * composition root (cli/store-root.ts) loads the three parts itself, the database's only for a
 * database store; the run path imports the port alone, so it loads neither backend
 * (test/architecture.test.ts holds it).
 */
export * from './index.js';
export * from './backend-file.js';
export * from './backend-pg.js';
export * from './backend-url.js';
