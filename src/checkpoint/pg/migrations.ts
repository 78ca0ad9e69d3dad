/**
 * The store's tables, as numbered migrations applied in order, each once, in the store's schema.
 * They run in one transaction under a transaction-level advisory lock (never a session lock: the
 * store works behind PgBouncer in transaction pooling), so processes starting together do not race:
 * the second waits, then finds them applied. A migration is never edited once released: a change is
 * a new one at the end.
 *
 * What each table holds (`docs/architecture.md` has the picture):
 * - jobs: one row per job, with its lease (owner host/pid/command, fencing token, expiry);
 * - journal: each job's events, in order (`seq`), written under the lease's token;
 * - snapshots: a job's folded state up to a journal seq (a shortcut: the journal is the truth);
 * - listings, plan_rejects: what the last read of a job's list left;
 * - suppression_changes, ledger_ops: the store-wide lists, as changes folded by the port's indexes;
 * - budget_holds: places of the messaging limit taken and not yet in the ledger, per process;
 * - window_clients, window_phones: the last inbound time per client and per phone;
 * - events: each message the webhook or sync recorded, once by message id;
 * - sync_book: the bookmark of `sync`;
 * - job_notes (2): a job's small notes by key (when `track` last read it, an experiment's decision);
 * - rate_shares (4): per number, each sending process's share of its rate and when it lapses.
 * - window_clients.channel_id, window_phones.channel_id (5): the number a window's last inbound message came to.
 * - (6) the company each shared record belongs to: ledger_ops.company_id (and the filled message's key,
 *   `message`, and the id of the job's state that sent it, `state`), budget_holds.company_id, window_clients/window_phones.company_id (a suppression change
 *   carries its `company` in its jsonb); a row without one was written before companies were kept and
 *   counts for every company. jobs.owner_job_file: the job file the lease's owner runs it from.
 * - budget_holds.host, budget_holds.pid (7): the process that holds the places (one of this host that is gone frees them at once).
 * - (8) a write's own ids, so that a statement run again after its connection was lost (its outcome
 *   unknown) writes nothing twice: journal.rid (each row's), ledger_ops.op_id, suppression_changes.change_id
 *   (each unique; rows written before have none), events.write_id (the write that recorded the message
 *   first, so that its retry still answers "new").
 */

export interface Migration {
  version: number;
  name: string;
  /** SQL with `$schema` standing for the quoted schema name. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the store',
    sql: `
CREATE TABLE $schema.jobs (
  job text PRIMARY KEY,
  lease_token bigint NOT NULL DEFAULT 0,
  owner_host text,
  owner_pid integer,
  owner_command text,
  owner_started_at text,
  lease_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE $schema.journal (
  job text NOT NULL,
  seq bigserial NOT NULL,
  phone text,
  token bigint NOT NULL,
  event text NOT NULL,
  PRIMARY KEY (job, seq)
);
CREATE INDEX journal_phone ON $schema.journal (job, phone, seq);
CREATE TABLE $schema.snapshots (
  job text PRIMARY KEY,
  upto bigint NOT NULL,
  data bytea NOT NULL,
  written_at timestamptz NOT NULL DEFAULT now()
);
-- Kept uncompressed, so that a large one is read in parts (pg/blob.ts) without inflating it from its start each time.
ALTER TABLE $schema.snapshots ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE $schema.listings (
  job text PRIMARY KEY,
  source text NOT NULL,
  data bytea NOT NULL
);
ALTER TABLE $schema.listings ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE $schema.plan_rejects (
  job text PRIMARY KEY,
  rows jsonb NOT NULL
);
CREATE TABLE $schema.suppression_changes (
  seq bigserial PRIMARY KEY,
  change jsonb NOT NULL
);
CREATE TABLE $schema.ledger_ops (
  seq bigserial PRIMARY KEY,
  op text NOT NULL CHECK (op IN ('add', 'take_back')),
  id text,
  phone text NOT NULL,
  at timestamptz NOT NULL,
  job text NOT NULL,
  outside_window boolean NOT NULL
);
CREATE INDEX ledger_ops_at ON $schema.ledger_ops (at);
CREATE INDEX ledger_ops_phone ON $schema.ledger_ops (phone);
CREATE TABLE $schema.budget_holds (
  holder text PRIMARY KEY,
  held integer NOT NULL CHECK (held >= 0),
  expires_at timestamptz NOT NULL
);
CREATE TABLE $schema.window_clients (
  client_id text PRIMARY KEY,
  phone text,
  last_inbound_at bigint
);
CREATE TABLE $schema.window_phones (
  phone text PRIMARY KEY,
  last_inbound_at bigint NOT NULL
);
CREATE TABLE $schema.events (
  seq bigserial UNIQUE,
  message_id text PRIMARY KEY,
  client_id text NOT NULL,
  phone text,
  direction text NOT NULL,
  created_at timestamptz NOT NULL,
  event jsonb NOT NULL
);
CREATE INDEX events_client ON $schema.events (client_id, created_at);
CREATE INDEX events_phone ON $schema.events (phone, created_at);
CREATE INDEX events_conversation ON $schema.events ((event->>'conversation_id'), created_at);
CREATE TABLE $schema.sync_book (
  id integer PRIMARY KEY CHECK (id = 1),
  book jsonb NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'job notes',
    sql: `
CREATE TABLE $schema.job_notes (
  job text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (job, key)
);
`,
  },
  {
    version: 3,
    name: 'the ledger records the number of a pool a first message went from',
    sql: `
ALTER TABLE $schema.ledger_ops ADD COLUMN channel_id integer;
`,
  },
  {
    version: 4,
    name: 'processes sending from one number share its rate',
    sql: `
CREATE TABLE $schema.rate_shares (
  channel integer NOT NULL,
  sender text NOT NULL,
  claim integer NOT NULL CHECK (claim >= 0),
  per_second integer NOT NULL,
  expires_at timestamptz NOT NULL,
  host text,
  pid integer,
  PRIMARY KEY (channel, sender)
);
`,
  },
  {
    version: 5,
    name: 'a reply window records the number its last inbound message came to',
    sql: `
ALTER TABLE $schema.window_clients ADD COLUMN channel_id integer;
ALTER TABLE $schema.window_phones ADD COLUMN channel_id integer;
`,
  },
  {
    version: 6,
    name: 'the shared lists belong to a company; a first message keeps its message; a lease names its job file',
    sql: `
ALTER TABLE $schema.ledger_ops ADD COLUMN company_id bigint, ADD COLUMN message text, ADD COLUMN state text;
ALTER TABLE $schema.budget_holds ADD COLUMN company_id bigint;
ALTER TABLE $schema.window_clients ADD COLUMN company_id bigint;
ALTER TABLE $schema.window_phones ADD COLUMN company_id bigint;
ALTER TABLE $schema.jobs ADD COLUMN owner_job_file text;
`,
  },
  {
    version: 7,
    name: 'a hold of the messaging limit names its host and process',
    sql: `
ALTER TABLE $schema.budget_holds ADD COLUMN host text, ADD COLUMN pid integer;
`,
  },
  {
    version: 8,
    name: 'every write carries its own ids, so that running it again after a lost connection writes nothing twice',
    sql: `
ALTER TABLE $schema.journal ADD COLUMN rid uuid;
CREATE UNIQUE INDEX journal_rid ON $schema.journal (rid);
ALTER TABLE $schema.ledger_ops ADD COLUMN op_id uuid;
CREATE UNIQUE INDEX ledger_ops_op_id ON $schema.ledger_ops (op_id);
ALTER TABLE $schema.suppression_changes ADD COLUMN change_id uuid;
CREATE UNIQUE INDEX suppression_changes_change_id ON $schema.suppression_changes (change_id);
ALTER TABLE $schema.events ADD COLUMN write_id uuid;
`,
  },
];

/** The newest version this program knows. */
export const LATEST_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);
