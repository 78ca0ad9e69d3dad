import { rawOf } from './columns.js';
import type { Contact, Reject, RejectReason } from './types.js';

/** A contact that a later stage (the planner) refuses, as a reject with the row's original columns. */
export function contactReject(contact: Contact, reason: RejectReason, detail: string): Reject {
  const row = contact.row;
  return {
    file: contact.file,
    line: contact.line,
    rawPhone: row?.rawPhone ?? contact.phone,
    reason,
    detail,
    raw: row ? rawOf(row.headers, row.cells) : { ...contact.vars },
  };
}
