/**
 * Language tags compared by language, then region: a variant for `es` is for every Spanish
 * speaker (`es`, `es_MX`, `es_AR`), one for `es_MX` only for Mexican Spanish. The loader and the job
 * schema have already checked and normalised both sides (`es`, `es_MX`); reading here is lenient
 * about case and separator, so `es-mx` and `pt-BR` compare as `es_MX` and `pt_BR` do.
 */

export interface LanguageTag {
  /** Lower case: `es`. */
  language: string;
  /** Upper case (`MX`) or a UN M.49 area (`419`), when the tag has one. */
  region?: string;
}

/** Language, optional script (dropped), optional region, separated by `_` or `-`. */
const TAG = /^([A-Za-z]{2,3})(?:[-_][A-Za-z]{4})?(?:[-_]([A-Za-z]{2}|\d{3}))?$/;

/** `es-mx` → `{ language: 'es', region: 'MX' }`; undefined when the text is not of that form. */
export function parseLanguage(tag: string): LanguageTag | undefined {
  const m = TAG.exec(tag.trim());
  const language = m?.[1];
  if (language === undefined) return undefined;
  const region = m?.[2];
  return region === undefined ? { language: language.toLowerCase() } : { language: language.toLowerCase(), region: region.toUpperCase() };
}

/** `es_MX`, `es`: the form the loader and the job schema give. */
export function formatLanguage(tag: LanguageTag): string {
  return tag.region === undefined ? tag.language : `${tag.language}_${tag.region}`;
}

/**
 * Whether a contact of language `have` is one that `wanted` asks for: the same language, and,
 * when `wanted` names a region, the same region. A contact with no language, or with only `es`
 * when `es_MX` is wanted, is not.
 */
export function languageMatches(wanted: string, have: string | undefined): boolean {
  if (have === undefined) return false;
  if (wanted === have) return true;
  const w = parseLanguage(wanted);
  const h = parseLanguage(have);
  if (w === undefined || h === undefined || w.language !== h.language) return false;
  return w.region === undefined || w.region === h.region;
}
