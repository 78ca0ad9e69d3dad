/**
 * A language tag → `es` or `es_MX`: a BCP 47 tag or WhatsApp's own form (`es`, `es_MX`, `es-mx`,
 * `pt-BR`, `zh-Hant-TW` → `zh_TW`), its language known to ICU (so "spanish" or "xx" are not
 * languages), its region, when it has one, a real one. Intl does the reading. The one reading of
 * both the contacts' language cells (contacts/) and the job's `message.variants[].when.language`
 * (job/); it imports nothing of the project.
 */

const TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

let languageNames: Intl.DisplayNames | undefined;
let regionNames: Intl.DisplayNames | undefined;

/** `es`, `es_MX`, `es_419`; undefined when the text is not a language tag. */
export function normaliseLanguage(text: string): string | undefined {
  const tag = text.trim();
  if (!TAG.test(tag)) return undefined;
  try {
    const locale = new Intl.Locale(tag.replaceAll('_', '-'));
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    if (languageNames.of(locale.language) === undefined) return undefined;
    const region = locale.region;
    if (region === undefined) return locale.language;
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    if (region === 'ZZ' || regionNames.of(region) === undefined) return undefined;
    return `${locale.language}_${region}`;
  } catch {
    return undefined; // a tag Intl refuses, or `und` (which DisplayNames refuses)
  }
}
