/**
 * A language tag as a job writes it (`es`, `es_MX`, `es-mx`, `pt-BR`) → `es` or `es_MX`, or
 * undefined when it is not one. The same reading as src/contacts/language.ts, which reads the
 * contacts' language cells (job/ imports nothing of contacts/); test/job/language.test.ts holds
 * the two to the same answers.
 */

const TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;

let languageNames: Intl.DisplayNames | undefined;
let regionNames: Intl.DisplayNames | undefined;

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
