/**
 * The suppression list for people: add and remove phones by hand, import a file of them, list
 * them. Phones are normalised to E.164 as contacts are, so `11 98765-4321` with BR and
 * `+55 11 98765-4321` are one entry. Every job of the store honours the list.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { StateStore, SuppressionEntry, SuppressionSource } from '../../checkpoint/index.js';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { InputError, loadContacts, normalisePhone, type LoaderOptions } from '../../contacts/index.js';
import { AppError } from '../errors.js';
import { loadJobIn } from '../load/index.js';
import { loadJob } from '../../job/index.js';

export interface SuppressOptions {
  reason?: string;
  /** Country of numbers written without a country code (ISO 3166-1 alpha-2). */
  defaultCountry?: string;
  /** The job named (`--job`): its `default_country` reads such numbers when `defaultCountry` is not given. */
  jobFile?: string;
  clock?: () => number;
}

export interface SuppressOutcome {
  added: SuppressionEntry[];
  /** Phones already on the list (their entry is kept). */
  already: SuppressionEntry[];
}

/** Puts phones on the list by hand (source `manual`). A phone that cannot be read refuses the whole call, naming it. */
export async function suppressPhones(store: StateStore, phones: readonly string[], options: SuppressOptions = {}): Promise<SuppressOutcome> {
  const cc = await countryFor(store, options);
  const e164 = phones.map((p) => phoneOf(p, cc));
  return add(store, e164, 'manual', options.reason ?? 'added by hand', options.clock);
}

/** Takes phones off the list, whoever put them there. */
export async function unsuppressPhones(
  store: StateStore,
  phones: readonly string[],
  options: Pick<SuppressOptions, 'defaultCountry' | 'jobFile' | 'clock'> = {},
): Promise<{ removed: string[]; notListed: string[] }> {
  const cc = await countryFor(store, options);
  const e164 = [...new Set(phones.map((p) => phoneOf(p, cc)))];
  const removed = await store.unsuppress(e164, options.clock ? { at: new Date(options.clock()).toISOString() } : {});
  return { removed, notListed: e164.filter((p) => !removed.includes(p)) };
}

export interface ImportOutcome extends SuppressOutcome {
  /** Lines that hold no usable number (file line, the text, why). */
  unreadable: Array<{ line: number; text: string; detail: string }>;
}

/**
 * Imports a file (source `import`): a CSV (or TSV) whose header has a phone column (`phone`, or a
 * header such as `Telefone` or `WhatsApp`), or a plain list of one number a line.
 */
export async function importSuppressions(store: StateStore, file: string, options: SuppressOptions = {}): Promise<ImportOutcome> {
  const cc = await countryFor(store, options);
  const first = await firstLine(file);
  const read = first !== undefined && /\p{L}/u.test(first) ? await readCsv(file, first, cc) : await readLines(file, cc);
  const outcome = await add(store, read.phones, 'import', options.reason ?? `imported from ${file}`, options.clock);
  return { ...outcome, unreadable: read.unreadable };
}

/** Whose list a `suppress` command means: a company's part of the store, and the job's default country when a job said it. */
export interface SuppressionAccount {
  store: StateStore;
  /** Undefined while the store holds no company's job: the list then counts for every company. */
  company?: number;
  /** The job's `default_country` (`--job`): numbers written without a country code are read as its. */
  defaultCountry?: string;
}

/**
 * The suppression list belongs to a company: the one `company` names (`--company`), else the job's
 * (`--job`), else the store's only company. A store holding several companies' jobs needs one of the two
 * (AppError, exit 2); a store holding none yet keeps a list that counts for every company.
 */
export async function suppressionAccount(store: StateStore, given: { company?: number; jobPath?: string }): Promise<SuppressionAccount> {
  if (given.jobPath !== undefined) {
    const { job } = await loadJob(given.jobPath);
    if (given.company !== undefined && given.company !== job.company_id) {
      throw new AppError(`--company ${given.company} is not the company of ${given.jobPath} (company_id ${job.company_id}); give one of the two`, 'invalid');
    }
    return { store: store.account(job.company_id), company: job.company_id, ...(job.default_country !== undefined && { defaultCountry: job.default_country }) };
  }
  if (given.company !== undefined) return { store: store.account(given.company), company: given.company };
  const companies = await store.companies();
  const [only] = companies;
  if (companies.length === 1 && only !== undefined) return { store: store.account(only), company: only };
  if (companies.length === 0) return { store };
  throw new AppError(`the store ${store.location} holds the jobs of companies ${companies.join(', ')}: say whose suppression list this is with --company N (or --job FILE)`, 'invalid');
}

/** Every entry, oldest first. */
export async function listSuppressions(store: StateStore): Promise<SuppressionEntry[]> {
  const list = await store.suppressions();
  return [...list.entries()].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.phone.localeCompare(b.phone));
}

async function add(store: StateStore, phones: readonly string[], source: SuppressionSource, reason: string, clock?: () => number): Promise<SuppressOutcome> {
  const at = new Date((clock ?? Date.now)()).toISOString();
  const unique = [...new Set(phones)];
  const result = await store.suppress(unique.map((phone) => ({ phone, reason, source, at })));
  return { added: result.added, already: result.already };
}

/** The country of numbers written without a country code: the one given, else the named job's `default_country` (a follow-up's is its earlier job's). */
async function countryFor(store: StateStore, options: Pick<SuppressOptions, 'defaultCountry' | 'jobFile' | 'clock'>): Promise<CountryCode | undefined> {
  if (options.defaultCountry !== undefined || options.jobFile === undefined) return country(options.defaultCountry);
  const loaded = await loadJobIn(options.jobFile, store, (options.clock ?? Date.now)());
  return loaded.job.default_country;
}

/** The default country as a code libphonenumber knows, or an AppError saying how to write it. */
function country(code: string | undefined): CountryCode | undefined {
  if (code === undefined) return undefined;
  const upper = code.trim().toUpperCase();
  if (isSupportedCountry(upper)) return upper;
  throw new AppError(`--default-country "${code}" is not a country code; use a two-letter ISO code such as BR, US or PT`, 'invalid');
}

function phoneOf(text: string, defaultCountry: CountryCode | undefined): string {
  const result = normalisePhone(text, defaultCountry);
  if (result.ok) return result.e164;
  throw new AppError(phoneProblem(text, result.detail, defaultCountry), 'invalid');
}

/**
 * One sentence with one fix: a number written without its country code (and no --default-country)
 * gets the two ways to give it, with the country it reads as in Brazil as the example; anything else,
 * what is wrong with it.
 */
function phoneProblem(text: string, detail: string, defaultCountry: CountryCode | undefined): string {
  const national = !/^\s*(\+|00)/.test(text) && /\d/.test(text);
  if (defaultCountry === undefined && national) {
    const example = normalisePhone(text, 'BR');
    const shown = example.ok ? ` (e.g. ${example.e164})` : '';
    const pass = example.ok ? '--default-country BR' : '--default-country with its country (e.g. BR)';
    return `"${text}" has no country code; write it as +<country code><number>${shown} or pass ${pass}`;
  }
  return detail === 'not a phone number' ? `"${text}" is not a phone number` : `"${text}" is not a phone number: ${detail}`;
}

type Read = { phones: string[]; unreadable: ImportOutcome['unreadable'] };

/** A plain list: one number a line; blank lines and lines starting with # are skipped. */
async function readLines(file: string, defaultCountry: CountryCode | undefined): Promise<Read> {
  const read: Read = { phones: [], unreadable: [] };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = raw.replace(/^\uFEFF/, '').trim();
    if (text === '' || text.startsWith('#')) continue;
    const result = normalisePhone(text, defaultCountry);
    if (result.ok) read.phones.push(result.e164);
    else read.unreadable.push({ line, text, detail: result.detail });
  }
  return read;
}

const PHONE_HEADER = /phone|fone|tel|cel|mobile|m[oó]vil|whats|zap|n[uú]mero|number/i;

/** A CSV with a header: the contact loader reads it (delimiter, quotes, E.164), taking the phone column. */
async function readCsv(file: string, header: string, defaultCountry: CountryCode | undefined): Promise<Read> {
  const cells = header.split(/[,;\t]/).map((h) => h.trim().replace(/^"|"$/g, ''));
  const column = cells.find((h) => h.toLowerCase() === 'phone') ?? cells.find((h) => PHONE_HEADER.test(h));
  if (column === undefined) {
    throw new AppError(`${file}: no phone column in the header (${cells.join(', ')}); name it "phone", or give one number a line without a header`, 'invalid');
  }
  const options: LoaderOptions = { columns: { phone: column }, namedColumns: ['phone'], ...(defaultCountry && { defaultCountry }) };
  const read: Read = { phones: [], unreadable: [] };
  try {
    for await (const item of loadContacts([file], options).items) {
      if (item.kind === 'contact') read.phones.push(item.contact.phone);
      else if (item.kind === 'reject' && item.reject.reason !== 'duplicate') read.unreadable.push({ line: item.reject.line, text: item.reject.rawPhone, detail: item.reject.detail });
    }
  } catch (err) {
    if (err instanceof InputError) throw new AppError(err.message, 'invalid');
    throw err;
  }
  return read;
}

/** The first line that is not blank, or undefined for an empty file. */
async function firstLine(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AppError(`${file}: ${code === 'ENOENT' ? 'no such file; check the path' : `cannot be read (${code ?? String(err)})`}`, 'invalid');
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer
      .toString('utf8', 0, bytesRead)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  } finally {
    await handle.close();
  }
}
