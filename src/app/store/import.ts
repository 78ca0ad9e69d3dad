import { STORE_PARTS, type JobImport, type PartImport, type StoreImporter, type StorePart } from '../../checkpoint/index.js';

/** What `outreach store import` did: each job of the folder, each store-wide part, and the jobs refused. */
export interface StoreImportOutcome {
  from: string;
  into: string;
  jobs: JobImport[];
  parts: Record<StorePart, PartImport>;
  /** The jobs the store holds with other content (or a run holds now): left where they are. */
  refused: Array<Extract<JobImport, { kind: 'refused' }>>;
}

/**
 * Moves a state folder into a store: every job (a job the store holds with other content is refused
 * and the rest goes on), then every store-wide part. Importing again changes nothing.
 */
export async function importStateFolder(importer: StoreImporter): Promise<StoreImportOutcome> {
  const jobs: JobImport[] = [];
  for (const name of await importer.jobs()) jobs.push(await importer.job(name));
  const parts = {} as Record<StorePart, PartImport>;
  for (const part of STORE_PARTS) parts[part] = await importer.part(part);
  const refused = jobs.filter((j): j is Extract<JobImport, { kind: 'refused' }> => j.kind === 'refused');
  return { from: importer.from, into: importer.into, jobs, parts, refused };
}
