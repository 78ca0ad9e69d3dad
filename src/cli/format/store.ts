import type { StoreImportOutcome } from '../../app/index.js';
import type { JobImport, MigrateOutcome, StorePart } from '../../checkpoint/backends.js';

/** "store postgres://runner:***@db/outreach: applied migration 1 (the store); the schema outreach is at version 1". */
export function formatMigrated(location: string, outcome: MigrateOutcome): string {
  if (outcome.applied.length === 0) return `store ${location}: up to date (version ${outcome.version})\n`;
  const applied = outcome.applied.map((m) => `${m.version} (${m.name})`).join(', ');
  return `store ${location}: applied migration${outcome.applied.length > 1 ? 's' : ''} ${applied}; the schema ${outcome.schema} is at version ${outcome.version}\n`;
}

const PART_NAMES: Record<StorePart, string> = {
  suppressions: 'suppression list changes',
  ledger: 'send ledger records',
  windows: 'reply windows',
  events: 'webhook events',
  syncBook: 'sync bookmark',
};

function formatJob(j: JobImport): string {
  switch (j.kind) {
    case 'imported': {
      const extras = [`${j.records} journal records`, ...(j.listing ? ['its listing'] : []), ...(j.rejects > 0 ? [`${j.rejects} rejected rows`] : []), ...(j.torn > 0 ? [`${j.torn} torn lines left out`] : [])];
      return `  job ${j.job}: imported (${extras.join(', ')})`;
    }
    case 'already':
      return `  job ${j.job}: already there`;
    case 'refused':
      return `  job ${j.job}: refused: ${j.reason}`;
  }
}

/** Per job and per part, what was imported and what the store already had. */
export function formatImport(outcome: StoreImportOutcome): string {
  const lines = [`import of ${outcome.from} into ${outcome.into}`];
  if (outcome.jobs.length === 0) lines.push('  no job folders');
  for (const j of outcome.jobs) lines.push(formatJob(j));
  for (const [part, name] of Object.entries(PART_NAMES) as Array<[StorePart, string]>) {
    const p = outcome.parts[part];
    const counts = p.imported + p.already === 0 ? 'none in the folder' : `${p.imported} imported, ${p.already} already there`;
    lines.push(`  ${name}: ${counts}${p.note ? ` (${p.note})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The one sentence of an import that left jobs out (exit 2). */
export function refusalSentence(outcome: StoreImportOutcome): string {
  const names = outcome.refused.map((j) => j.job);
  const which = names.length === 1 ? `job ${names[0] ?? ''} is` : `jobs ${names.join(', ')} are`;
  return `${which} already in the store with other content or held by a run (see above), so ${names.length === 1 ? 'it was' : 'they were'} left out; keep running ${names.length === 1 ? 'it' : 'them'} from the folder, or import the folder into another schema (?schema=name in the store URL)`;
}
