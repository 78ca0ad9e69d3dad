/**
 * What node-postgres is given to connect to a store: its URL read with libpq's meanings of
 * `sslmode` (PGSSLMODE when the URL says none), and the password: the URL's, else PGPASSWORD, else
 * the password file (PGPASSFILE, else ~/.pgpass), read here with node-postgres's own reader, pgpass.
 * Left to node-postgres, reading the file prints a deprecation warning; asked here, it does not.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import { parse, toClientConfig } from 'pg-connection-string';
import { LIBPQ_COMPAT, sslModeProblem, StoreUrlError, type PgStoreUrl } from './url.js';

/** What pgpass is given (a connection's host, port, database, user) and answers (the password, or undefined). */
type PassLookup = (info: ConnectionFacts, done: (password: string | undefined) => void) => void;
interface ConnectionFacts {
  host?: string | undefined;
  port?: number | undefined;
  database?: string | undefined;
  user?: string | undefined;
}
const pgpass = createRequire(import.meta.url)('pgpass') as PassLookup;

/** The server asks for a password and none was given anywhere: a user's error, told in describeDbError. */
export class NoPasswordError extends Error {
  readonly code = 'NO_PASSWORD';
  constructor() {
    super('the server asks for a password and none was given');
    this.name = 'NoPasswordError';
  }
}

export function connectionConfig(url: PgStoreUrl, env: NodeJS.ProcessEnv = process.env): pg.ClientConfig {
  let text = url.connectionString;
  const fromEnv = env.PGSSLMODE;
  if (fromEnv !== undefined && fromEnv !== '' && !/[?&]sslmode=/.test(text)) {
    const problem = sslModeProblem(fromEnv, /[?&]sslrootcert=/.test(text));
    if (problem !== undefined) throw new StoreUrlError(`PGSSLMODE=${fromEnv}: ${problem}`);
    text += `${text.includes('?') ? '&' : '?'}sslmode=${fromEnv}`;
  }
  const config = toClientConfig(parse(text, LIBPQ_COMPAT));
  if (config.password) return config;
  // Asked only when the server wants a password, as a method of the connecting client (node-postgres passes the connection's facts).
  async function password(this: unknown, facts?: ConnectionFacts): Promise<string> {
    try {
      return await passwordFor(facts ?? config, env);
    } catch (err) {
      // The server waits for the password until its own timeout: the refused connect leaves the socket to close here, once it has failed.
      const client = this;
      if (client instanceof pg.Client) setImmediate(() => void client.end().catch(() => undefined));
      throw err;
    }
  }
  return { ...config, password };
}

async function passwordFor(facts: ConnectionFacts, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.PGPASSWORD !== undefined) return env.PGPASSWORD;
  const found = await new Promise<string | undefined>((resolve) => pgpass({ host: facts.host, port: facts.port, database: facts.database, user: facts.user }, resolve));
  if (found === undefined) throw new NoPasswordError();
  return found;
}
