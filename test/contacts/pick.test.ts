import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContacts, pickRows, type LoadItem } from '../../src/contacts/index.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(path.join(os.tmpdir(), 'outreach-pick-'));
  const at = path.join(dir, name);
  await writeFile(at, text);
  return at;
}

async function all(files: string[]): Promise<LoadItem[]> {
  const out: LoadItem[] = [];
  for await (const item of loadContacts(files, { defaultCountry: 'BR' }).items) out.push(item);
  return out;
}

describe('picking rows of a list by their line', () => {
  it('gives the rows asked for as the whole read gives them, across files, without the others', async () => {
    const a = await file('a.csv', 'phone;name;coupon\n\n+5511970000000;Ana;"B;1"\n12;Bad;X\n+5511970000001;Bia;B2\n');
    const b = await file('b.tsv', 'phone\tname\n+5511970000002\tCai\n+5511970000003\tDai\n');
    const whole = await all([a, b]);
    const wanted = whole.filter((i) => i.kind !== 'warning' && [a + ':3', a + ':4', b + ':3'].includes(`${i.kind === 'contact' ? i.contact.file : i.reject.file}:${i.kind === 'contact' ? i.contact.line : i.reject.line}`));
    const picked = await pickRows([a, b], { defaultCountry: 'BR' }, [{ file: b, line: 3 }, { file: a, line: 4 }, { file: a, line: 3 }]);
    expect(picked).toEqual({ ok: true, items: wanted });
    expect(wanted).toHaveLength(3);
  });

  it('declines a row whose quoted cell may run over several lines, a line past the end, and a JSON list', async () => {
    const a = await file('a.csv', 'phone,name\n+5511970000000,"Ana\nSecond"\n+5511970000001,Bia\n');
    expect((await pickRows([a], {}, [{ file: a, line: 2 }])).ok).toBe(false);
    expect((await pickRows([a], {}, [{ file: a, line: 9 }])).ok).toBe(false);
    const j = await file('c.ndjson', '{"phone":"+5511970000000"}\n');
    expect((await pickRows([j], {}, [{ file: j, line: 1 }])).ok).toBe(false);
  });

  it('reads a tail and a new file as the whole read gives their rows, a phone of a known row there a duplicate of it', async () => {
    const head = 'phone;name\n+5511970000000;Ana\n+5511970000001;Bia\n';
    const a = await file('a.csv', `${head}+5511970000002;"Cai\nLine two"\n\n+5511970000000;Again\n`);
    const b = await file('b.csv', 'sep=;\nphone;name\n+5511970000003;Dai\n+5511970000001;Twice\n');
    const whole = (await all([a, b])).filter((i) => i.kind !== 'warning' && (i.kind === 'contact' ? i.contact.line > 3 || i.contact.file === b : i.reject.line > 3 || i.reject.file === b));
    // Ana and Bia were read before and are not read again: the known rows stand for them.
    const known = { count: 2, phones: new Float64Array([5511970000000, 5511970000001]), fileOf: new Uint16Array([0, 0]), lines: new Int32Array([2, 3]), files: [a] };
    const picked = await pickRows([a, b], { defaultCountry: 'BR' }, [], { tails: [{ file: a, fromByte: Buffer.byteLength(head), fromLine: 4 }, { file: b, fromByte: 0, fromLine: 1 }], known });
    expect(picked).toEqual({ ok: true, items: whole });
    expect(whole.map((i) => (i.kind === 'reject' ? i.reject.detail : i.kind))).toEqual(['contact', `same phone as ${a} line 2`, 'contact', `same phone as ${a} line 3`]);
  });

  it('declines a tail whose quote never closes (the whole read then says where)', async () => {
    const head = 'phone,name\n+5511970000000,Ana\n';
    const a = await file('a.csv', `${head}+5511970000001,"Bia\n`);
    expect(await pickRows([a], {}, [], { tails: [{ file: a, fromByte: Buffer.byteLength(head), fromLine: 3 }] })).toMatchObject({ ok: false });
  });
});
