/** JSON and NDJSON entries as rows: an object's keys are its headers, its primitive values its cells. */
import { type KeysSeen, type Mapping, checkColumns, keysSeen, mapColumns, noteKeys } from './columns.js';
import type { LoadItem, LoadWarning } from './items.js';
import type { JsonEntry } from './json.js';
import { type RowContext, notAnObject, rowItem } from './row.js';

/** Per file: mappings by the entries' keys (most lists have one or a few shapes), and whether the first object was checked. */
export interface ObjectsState {
  mappings: Map<string, Mapping>;
  checked: boolean;
  /** For `checkNamedKeys` once the file is read. */
  seen: KeysSeen;
}

export function objectsState(): ObjectsState {
  return { mappings: new Map(), checked: false, seen: keysSeen() };
}

/**
 * The entry as a contact or a reject: `not_an_object` for anything but an object; nested
 * objects and lists are not columns; null is an empty cell. The first object stands for the
 * file: without the phone key it is an InputError (the job names the wrong key).
 */
export function entryItem(ctx: RowContext, state: ObjectsState, entry: JsonEntry, warnings: LoadWarning[]): LoadItem {
  const { line, value } = entry;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return notAnObject(ctx, line, value);
  const headers: string[] = [];
  const cells: string[] = [];
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v === null || v === undefined) {
      headers.push(key);
      cells.push('');
    } else if (typeof v !== 'object') {
      headers.push(key);
      cells.push(String(v));
    }
  }
  const signature = headers.join('\u0000');
  let mapping = state.mappings.get(signature);
  if (mapping === undefined) {
    mapping = mapColumns(headers, ctx.settings);
    noteKeys(state.seen, mapping);
    if (state.mappings.size < 1000) state.mappings.set(signature, mapping);
  }
  if (!state.checked) {
    checkColumns(mapping, ctx.settings, ctx.file, line, true);
    state.checked = true;
  }
  return rowItem(ctx, mapping, line, cells, warnings);
}
