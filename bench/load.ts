/**
 * Loader throughput against its floor: a generated contact list (default 1,000,000 rows, mixed
 * phone formats, default country BR) read (a) by the loader end to end and (b) by bare
 * csv-parse streaming + `parsePhoneNumberFromString(phone, 'BR')?.isValid()` per row, in the
 * same process. Goal: loader ≥ 0.8× baseline, peak RSS < 300 MB.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/load.js [rows] [rounds]
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { loadContacts } from '../src/contacts/index.js';
import { seededRandom } from '../src/sim/random.js';

export interface BenchLoadResult {
  loaderRowsPerSec: number;
  baselineRowsPerSec: number;
  ratio: number;
  /** Highest RSS sampled while the loader ran (and the process's own max RSS, for the whole run). */
  peakRssMb: number;
  processMaxRssMb: number;
  rows: number;
  contacts: number;
  rejected: number;
}

export async function benchLoad(opts: { rows?: number; dir?: string; rounds?: number } = {}): Promise<BenchLoadResult> {
  const rows = opts.rows ?? 1_000_000;
  const rounds = opts.rounds ?? 2;
  const dir = mkdtempSync(join(opts.dir ?? tmpdir(), 'outreach-bench-'));
  const file = join(dir, 'contacts.csv');
  try {
    generate(file, rows);
    // Warm both paths on a short list so neither pays the JIT and metadata start-up alone.
    const warm = join(dir, 'warm.csv');
    generate(warm, 20_000);
    await baseline(warm);
    await loader(warm);

    // Alternate the two and keep each one's best round: other work on the machine slows a round, never speeds it up.
    let base: Timed<Tally> | undefined;
    let load: Timed<Tally> | undefined;
    for (let round = 0; round < rounds; round++) {
      const b = await timed(() => baseline(file));
      const l = await timed(() => loader(file));
      if (base === undefined || b.seconds < base.seconds) base = b;
      if (load === undefined || l.seconds < load.seconds) load = { ...l, peakRss: Math.max(l.peakRss, load?.peakRss ?? 0) };
      else load.peakRss = Math.max(load.peakRss, l.peakRss);
    }
    if (base === undefined || load === undefined) throw new Error('rounds must be at least 1');
    const baselineRowsPerSec = rows / base.seconds;
    const loaderRowsPerSec = rows / load.seconds;
    return {
      loaderRowsPerSec: Math.round(loaderRowsPerSec),
      baselineRowsPerSec: Math.round(baselineRowsPerSec),
      ratio: Math.round((loaderRowsPerSec / baselineRowsPerSec) * 100) / 100,
      peakRssMb: Math.round(load.peakRss / 2 ** 20),
      processMaxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      rows,
      contacts: load.value.contacts,
      rejected: load.value.rejected,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Tally {
  contacts: number;
  rejected: number;
}

async function loader(file: string): Promise<Tally> {
  const { items, counts } = loadContacts([file], { defaultCountry: 'BR', columns: { name: 'First name', last_inbound_at: 'last_reply' } });
  for await (const item of items) void item;
  if (counts.rows === 0) throw new Error('the loader read no rows');
  return { contacts: counts.contacts, rejected: counts.rejected };
}

async function baseline(file: string): Promise<Tally> {
  let valid = 0;
  let invalid = 0;
  let header = true;
  for await (const record of createReadStream(file).pipe(parse())) {
    if (header) {
      header = false;
      continue;
    }
    if (parsePhoneNumberFromString((record as string[])[0]!, 'BR')?.isValid()) valid++;
    else invalid++;
  }
  return { contacts: valid, rejected: invalid };
}

interface Timed<T> {
  value: T;
  seconds: number;
  peakRss: number;
}

async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 25);
  const start = process.hrtime.bigint();
  try {
    const value = await run();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return { value, seconds, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

// ---- the generated list -------------------------------------------------------------------

const AREAS = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '27', '48', '62', '92'];
const NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Íris', 'João', 'Larissa', 'Mateus'];
const LASTNAMES = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Pereira', 'Lima', 'Carvalho', 'Ribeiro', 'Almeida', 'Costa'];
const CITIES = ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte', 'Curitiba', 'Porto Alegre', 'Brasília', 'Salvador', 'Recife'];

/** Writes the benchmark's contact list: a header and `rows` rows. */
export function generate(file: string, rows: number): void {
  const rnd = seededRandom(20261121); // a fixed seed: every run reads the same list
  const digits = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(rnd() * 10);
    return s;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const phone = (): string => {
    const r = rnd();
    const area = pick(AREAS);
    const sub = `9${1 + Math.floor(rnd() * 9)}${digits(7)}`; // a Brazilian mobile: 9 digits starting 9[1-9]
    if (r < 0.15) return `(${area}) ${sub.slice(0, 5)}-${sub.slice(5)}`;
    if (r < 0.25) return `0${area} ${sub.slice(0, 5)}-${sub.slice(5)}`;
    if (r < 0.4) return `${area}${sub}`;
    if (r < 0.65) return `+55${area}${sub}`;
    if (r < 0.7) return `+55 ${area} ${sub.slice(0, 5)}-${sub.slice(5)}`;
    if (r < 0.74) return `0055 ${area} ${sub}`;
    if (r < 0.77) return `+1 ${pick(['212', '415', '305', '617'])} ${2 + Math.floor(rnd() * 8)}${digits(2)} ${digits(4)}`;
    if (r < 0.8) return `+351 9${pick(['1', '2', '3', '6'])}${digits(7)}`;
    if (r < 0.83) return `+44 7${pick(['4', '5', '7', '8', '9'])}${digits(8)}`;
    if (r < 0.86) return `+49 15${pick(['1', '2', '7'])} ${digits(8)}`;
    if (r < 0.88) return `+52 55 ${digits(4)} ${digits(4)}`;
    if (r < 0.9) return `+91 9${digits(9)}`;
    if (r < 0.92) return `+34 6${digits(8)}`;
    if (r < 0.94) return `+33 6 ${digits(2)} ${digits(2)} ${digits(2)} ${digits(2)}`;
    if (r < 0.96) return `+234 803 ${digits(3)} ${digits(4)}`;
    // bad ones: too short, a landline-looking short number, letters, scientific notation, empty
    if (r < 0.97) return digits(5);
    if (r < 0.98) return `5.5119${digits(4)}E+12`;
    if (r < 0.99) return 'n/a';
    return '';
  };
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, 'phone,First name,Last name,email,coupon,last_reply,city\n');
    let batch = '';
    for (let i = 0; i < rows; i++) {
      const name = pick(NAMES);
      const lastname = pick(LASTNAMES);
      const reply = rnd() < 0.1 ? `2026-11-2${Math.floor(rnd() * 2)}T${10 + Math.floor(rnd() * 10)}:${digits(1)}5:00-03:00` : '';
      const coupon = rnd() < 0.9 ? `BF${digits(4)}` : '';
      batch += `${phone()},${name},${lastname},${name.toLowerCase()}.${lastname.toLowerCase()}${i}@example.com,${coupon},${reply},"${pick(CITIES)}"\n`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const rounds = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
  const r = await benchLoad({ ...(rows === undefined ? {} : { rows }), ...(rounds === undefined ? {} : { rounds }) });
  const f = (n: number): string => n.toLocaleString('en');
  console.log(`rows            ${f(r.rows)} (${f(r.contacts)} contacts, ${f(r.rejected)} rejected)`);
  console.log(`loader          ${f(r.loaderRowsPerSec)} rows/s`);
  console.log(`baseline        ${f(r.baselineRowsPerSec)} rows/s (csv-parse + parsePhoneNumberFromString(…, 'BR')?.isValid())`);
  console.log(`ratio           ${r.ratio} (goal ≥ 0.8) ${r.ratio >= 0.8 ? 'ok' : 'BELOW GOAL'}`);
  console.log(`peak RSS        ${r.peakRssMb} MB while loading, ${r.processMaxRssMb} MB for the whole process (goal < 300 MB) ${r.peakRssMb < 300 ? 'ok' : 'ABOVE GOAL'}`);
}
