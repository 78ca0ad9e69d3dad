/**
 * A row's language cell → the contact's language as `es` or `es_MX` (locale/language.ts reads it,
 * as it reads the job's variant languages), once per distinct cell of a load.
 */
import { normaliseLanguage } from '../locale/language.js';

export { normaliseLanguage };

/** Past this many distinct cells, new ones are read without being kept. */
const MAX_CACHED = 10_000;

/** `normaliseLanguage` once per distinct cell of a load; `null` for a cell that is not a language. */
export class LanguageCells {
  private readonly seen = new Map<string, string | null>();

  read(cell: string): string | null {
    let language = this.seen.get(cell);
    if (language === undefined) {
      language = normaliseLanguage(cell) ?? null;
      if (this.seen.size < MAX_CACHED) this.seen.set(cell, language);
    }
    return language;
  }
}
