/** One row of any format → a contact, or a reject with its reason; the loader's hot path. */
import type { CountryCode } from 'libphonenumber-js/max';
import type { Mapping } from './columns.js';
import { rawOf } from './columns.js';
import { type CountryCells, countryMismatch } from './country.js';
import type { Dedupe } from './dedupe.js';
import type { LoadItem, LoadWarning } from './items.js';
import type { LanguageCells } from './language.js';
import type { ZoneCells } from './zone.js';
import type { Settings } from './options.js';
import { knownNumber } from './known-phone.js';
import { isFailure, parsePhone } from './phone.js';
import { parseInstant } from './time.js';
import type { Contact, RejectReason } from './types.js';

export interface RowContext {
  file: string;
  fileIndex: number;
  settings: Settings;
  dedupe: Dedupe;
  /** The load's readings of country and language cells, one per distinct cell. */
  countries: CountryCells;
  languages: LanguageCells;
  zones: ZoneCells;
}

/**
 * The row as a contact or a reject. A contact whose last_inbound_at cannot be read also gets
 * a warning, pushed onto `warnings`. `cells` line up with `mapping.headers`.
 */
export function rowItem(ctx: RowContext, mapping: Mapping, line: number, cells: string[], warnings: LoadWarning[]): LoadItem {
  const { headers } = mapping;
  if (cells.length !== headers.length) {
    return reject(ctx, mapping, line, cells, 'ragged_row', `${cells.length} cells where the header has ${headers.length}`);
  }
  let cellCountry: CountryCode | undefined;
  const countryCell = field(cells, mapping.country);
  if (countryCell !== undefined && countryCell !== '') {
    const reading = ctx.countries.read(countryCell);
    if (!reading.ok) return reject(ctx, mapping, line, cells, 'unknown_country', reading.detail);
    cellCountry = reading.country;
  }
  let language: string | undefined;
  const languageCell = field(cells, mapping.language);
  if (languageCell !== undefined && languageCell !== '') {
    const read = ctx.languages.read(languageCell);
    if (read === null) {
      const detail = `the language column says "${clip(languageCell)}", which is not a language code; write one such as es, es_MX or pt-BR`;
      return reject(ctx, mapping, line, cells, 'unknown_language', detail);
    }
    language = read;
  }
  let timezone: string | undefined;
  const zoneCell = field(cells, mapping.timezone);
  if (zoneCell !== undefined && zoneCell !== '') {
    timezone = ctx.zones.read(zoneCell);
    if (timezone === undefined) {
      const detail = `the time-zone column says "${clip(zoneCell)}", which is not an IANA time zone; write one such as America/Sao_Paulo`;
      return reject(ctx, mapping, line, cells, 'unknown_timezone', detail);
    }
  }
  const optInCell = field(cells, mapping.optIn);

  const rawPhone = mapping.phone >= 0 ? cells[mapping.phone]! : '';
  const { settings } = ctx;
  // A settled contact's number written as E.164 is that number (known-phone.ts); else the row's own
  // country reads a number written without a country code, default_country the fallback.
  const known = settings.known !== undefined ? knownNumber(rawPhone, settings.known) : undefined;
  const phone = known ?? parsePhone(rawPhone, cellCountry ?? settings.defaultCountry);
  if (isFailure(phone)) {
    return reject(ctx, mapping, line, cells, phone.reason, phone.detail);
  }
  if (cellCountry !== undefined) {
    const mismatch = countryMismatch(phone, cellCountry);
    if (mismatch !== undefined) return reject(ctx, mapping, line, cells, 'phone_country_mismatch', mismatch);
  }
  // A known number has no type, and never comes with require_mobile (options.ts): those rows are parsed.
  if (settings.requireMobile && 'getType' in phone && phone.getType() === 'FIXED_LINE') {
    return reject(ctx, mapping, line, cells, 'phone_not_mobile', 'a fixed-line number, and require_mobile is set; WhatsApp needs a mobile');
  }
  const e164 = phone.number;
  const first = ctx.dedupe.firstSeen(e164, ctx.fileIndex, line);
  if (first !== undefined) {
    return reject(ctx, mapping, line, cells, 'duplicate', `same phone as ${first.file} line ${first.line}`);
  }

  const vars: Record<string, string> = {};
  const { varKeys } = mapping;
  for (let i = 0; i < cells.length; i++) {
    const key = varKeys[i];
    if (key !== undefined) vars[key] = cells[i]!.trim();
  }
  vars.phone = e164;
  const name = field(cells, mapping.name);
  const lastname = field(cells, mapping.lastname);
  const email = field(cells, mapping.email);
  if (name !== undefined) vars.name = name;
  if (lastname !== undefined) vars.lastname = lastname;
  if (email !== undefined) vars.email = email;

  let lastInboundAt: number | undefined;
  const inbound = field(cells, mapping.lastInboundAt);
  if (inbound !== undefined && inbound !== '') {
    lastInboundAt = parseInstant(inbound);
    if (lastInboundAt === undefined) {
      warnings.push({
        kind: 'warning',
        warning: 'last_inbound_at_unreadable',
        file: ctx.file,
        line,
        detail: `"${clip(inbound)}"`,
        message: `${ctx.file} line ${line}: "${clip(inbound)}" in column "${headers[mapping.lastInboundAt]!.trim()}" is not a date-time such as 2026-11-20T14:03:00-03:00, so this contact's 24-hour window is unknown`,
      });
    }
  }

  const row = { headers, cells, rawPhone };
  // The same fields in the same order either way; a list without opt-in and zone columns (most, and a
  // million rows) is made without spreading them in.
  const contact: Contact =
    !optInCell && timezone === undefined
      ? { file: ctx.file, line, phone: e164, country: phone.country, language, name: name || undefined, lastname: lastname || undefined, email: email || undefined, lastInboundAt, vars, row }
      : {
          file: ctx.file,
          line,
          phone: e164,
          country: phone.country,
          language,
          ...(optInCell ? { optIn: optInCell } : {}),
          ...(timezone !== undefined ? { timezone } : {}),
          name: name || undefined,
          lastname: lastname || undefined,
          email: email || undefined,
          lastInboundAt,
          vars,
          row,
        };
  return { kind: 'contact', contact };
}

/** A row that is not a usable object at all (a JSON entry that is a number, a list, …). */
export function notAnObject(ctx: RowContext, line: number, value: unknown): LoadItem {
  const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
  return {
    kind: 'reject',
    reject: {
      file: ctx.file,
      line,
      rawPhone: '',
      reason: 'not_an_object',
      detail: `the entry is ${what} (${clip(JSON.stringify(value) ?? String(value))}), not an object such as {"phone": "+5511987654321"}`,
      raw: {},
    },
  };
}

function reject(ctx: RowContext, mapping: Mapping, line: number, cells: string[], reason: RejectReason, detail: string): LoadItem {
  const rawPhone = mapping.phone >= 0 && mapping.phone < cells.length ? cells[mapping.phone]! : '';
  return { kind: 'reject', reject: { file: ctx.file, line, rawPhone, reason, detail, raw: rawOf(mapping.headers, cells) } };
}

function field(cells: string[], index: number): string | undefined {
  return index >= 0 ? cells[index]!.trim() : undefined;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
