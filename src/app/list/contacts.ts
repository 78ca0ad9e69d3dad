import type { ListedContact, StateStore } from '../../checkpoint/index.js';
import type { Contact } from '../../contacts/index.js';
import { resolveContactFiles } from '../../job/index.js';
import { chooseVariant, variantLabel } from '../../plan/variant.js';
import type { AudienceJob } from '../follow-up/index.js';
import { loadJobIn, type ContactList } from '../load/index.js';

/** A contact of the list, by key, with what the report shows of its row. */
export interface Listed extends ListedContact {
  /** The row's cells by header (only when asked for: `report --columns`). */
  columns?: Record<string, string>;
}

/** What the report shows of a contact's row; `columns` adds the row's cells. Pure. */
export function listedOf(contact: Contact, job: Pick<ContactList['job'], 'message'>, options: { columns?: boolean } = {}): Listed {
  // Set one after the other, in this order (a run makes one for each of a million rows: no spreads).
  const listed: Listed = { phone: contact.phone, line: contact.line, file: contact.file };
  if (contact.name !== undefined) listed.name = contact.name;
  if (contact.row !== undefined) listed.phoneAsWritten = contact.row.rawPhone;
  if (job.message.variants.length > 0) listed.variant = variantLabel(chooseVariant(contact, job.message));
  if (options.columns && contact.row) listed.columns = cellsOf(contact.row);
  return listed;
}

function cellsOf(row: NonNullable<Contact['row']>): Record<string, string> {
  const out: Record<string, string> = {};
  row.headers.forEach((header, i) => {
    if (!Object.hasOwn(out, header)) out[header] = row.cells[i] ?? '';
  });
  return out;
}

/** The contact list of a loaded job, found on disk. */
export async function contactListOf(loaded: AudienceJob): Promise<ContactList> {
  return { job: loaded.job, files: await resolveContactFiles(loaded), namedColumns: loaded.namedColumns, jobFile: loaded.jobFile, ...(loaded.only && { only: loaded.only }) };
}

/** The list's contacts with these phones (one read of the list); a phone not in the list is absent from the map. */
export async function contactsByPhone(list: ContactList, phones: ReadonlySet<string>): Promise<Map<string, Contact>> {
  const found = new Map<string, Contact>();
  if (phones.size === 0) return found;
  const { audience } = await import('../audience/index.js'); // the contact loader only when the list is read
  for await (const item of audience(list).items) {
    if (item.kind === 'contact' && phones.has(item.contact.phone) && !found.has(item.contact.phone)) found.set(item.contact.phone, item.contact);
  }
  return found;
}

/** The job file loaded, and its contact list. */
export async function loadList(jobPath: string, store: StateStore, now: number): Promise<ContactList & { loaded: AudienceJob }> {
  const loaded = await loadJobIn(jobPath, store, now);
  return { ...(await contactListOf(loaded)), loaded };
}
