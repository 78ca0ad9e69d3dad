/**
 * The database store's URL reader (whether a URL is one, its parts, its password masked), for the
 * composition root: it loads no node-postgres, so reading where the store is costs nothing.
 */
export { isPgUrl, maskUrl, parsePgUrl, StoreUrlError, type PgStoreUrl } from './pg/url.js';
