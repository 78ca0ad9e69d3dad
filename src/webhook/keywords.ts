/**
 * Opt-out and opt-in keywords in inbound messages (the SMS convention campaign tools carry over to
 * WhatsApp: shared/PROVIDER.md). A message means opt-out only when its whole text is a keyword:
 * "STOP" does, "please stop sending me this" does not. Pure: the lists come in as values.
 */

/** Replaces DEFAULT_OPT_OUT_KEYWORDS when it names at least one keyword (comma-separated). */
export const OPT_OUT_ENV = 'OUTREACH_OPTOUT_KEYWORDS';
/** Replaces DEFAULT_OPT_IN_KEYWORDS when it names at least one keyword (comma-separated). */
export const OPT_IN_ENV = 'OUTREACH_OPTIN_KEYWORDS';

/** English (the carriers' STOP list), Portuguese and Spanish. */
export const DEFAULT_OPT_OUT_KEYWORDS: readonly string[] = [
  'STOP', 'STOP ALL', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPT OUT', 'OPTOUT', 'REVOKE',
  'PARAR', 'PARE', 'SAIR', 'CANCELAR', 'DESCADASTRAR', 'DESCADASTRE', 'DESINSCREVER', 'REMOVER',
  'BAJA', 'DAR DE BAJA', 'ALTO', 'DETENER', 'DESUSCRIBIR', 'DESUSCRIBIRME',
];

/** English, Portuguese and Spanish; none is also an opt-out keyword. */
export const DEFAULT_OPT_IN_KEYWORDS: readonly string[] = [
  'START', 'UNSTOP', 'SUBSCRIBE', 'YES',
  'VOLTAR', 'RETOMAR', 'INSCREVER', 'ASSINAR',
  'ALTA', 'DAR DE ALTA', 'SUSCRIBIR', 'SUSCRIBIRME', 'INICIAR',
];

/** Both lists, normalised (normaliseKeyword). Build with `inboundKeywords` or `keywordsFromEnv`. */
export interface InboundKeywords {
  readonly optOut: ReadonlySet<string>;
  readonly optIn: ReadonlySet<string>;
}

export type InboundIntent = 'opt_out' | 'opt_in';

/** Punctuation, symbols (emoji), invisible format characters and spaces around the text are ignored. */
const AROUND = /^[\p{P}\p{S}\p{Cf}\s]+|[\p{P}\p{S}\p{Cf}\s]+$/gu;
/** Inside, runs of spaces, dashes and underscores count as one space: `opt-out` is `opt out`. */
const BETWEEN = /[\s\p{Pd}_]+/gu;

/**
 * The form texts are compared in: without accents (`Descadastrar`, `PÁRAR`), case, surrounding
 * punctuation (`STOP!`, `¡Baja!`, `stop.`) and surrounding space; `Dar  de-baja` is `dar de baja`.
 */
export function normaliseKeyword(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(AROUND, '').replace(BETWEEN, ' ');
}

/** The two lists, normalised, blanks dropped; a word in both lists stays only an opt-out keyword. */
export function inboundKeywords(optOut: readonly string[], optIn: readonly string[]): InboundKeywords {
  const out = new Set(optOut.map(normaliseKeyword).filter((k) => k !== ''));
  const inn = new Set(optIn.map(normaliseKeyword).filter((k) => k !== '' && !out.has(k)));
  return { optOut: out, optIn: inn };
}

/** The built-in lists. */
export const DEFAULT_KEYWORDS: InboundKeywords = inboundKeywords(DEFAULT_OPT_OUT_KEYWORDS, DEFAULT_OPT_IN_KEYWORDS);

/**
 * The lists from the environment: each variable, comma-separated, replaces its defaults; blank
 * entries are ignored, and a variable with no keyword at all leaves the defaults in place.
 */
export function keywordsFromEnv(env: Readonly<Record<string, string | undefined>>): InboundKeywords {
  return inboundKeywords(listFrom(env[OPT_OUT_ENV]) ?? DEFAULT_OPT_OUT_KEYWORDS, listFrom(env[OPT_IN_ENV]) ?? DEFAULT_OPT_IN_KEYWORDS);
}

function listFrom(value: string | undefined): string[] | undefined {
  const list = (value ?? '').split(',').filter((k) => normaliseKeyword(k) !== '');
  return list.length > 0 ? list : undefined;
}

/** 'opt_out' or 'opt_in' when the whole inbound text is one of the keywords, else undefined. */
export function classifyInbound(text: string, keywords: InboundKeywords): InboundIntent | undefined {
  const key = normaliseKeyword(text);
  if (key === '') return undefined;
  if (keywords.optOut.has(key)) return 'opt_out';
  if (keywords.optIn.has(key)) return 'opt_in';
  return undefined;
}
