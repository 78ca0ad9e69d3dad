import { describe, expect, it } from 'vitest';
import { columnsUsed, placeholderColumns, render, renderCustomFields } from '../../src/plan/index.js';
import { makeContact, makeJob, TEMPLATE, TEXT } from './fixtures.js';

describe('render', () => {
  it.each<[string, string, Record<string, string>, ReturnType<typeof render>]>([
    ['fills every placeholder', 'Oi {{name}}, {{coupon}}!', { name: 'Ana', coupon: 'BF10' }, { ok: true, text: 'Oi Ana, BF10!' }],
    ['leaves a text without placeholders alone', 'Olá!', {}, { ok: true, text: 'Olá!' }],
    ['fills the same placeholder twice', '{{name}} {{name}}', { name: 'Ana' }, { ok: true, text: 'Ana Ana' }],
    ['reads a placeholder name trimmed and lower-cased', '{{ First Name }}', { 'first name': 'Ana' }, { ok: true, text: 'Ana' }],
    ['names the first missing column', '{{a}} {{b}} {{c}}', { a: 'x' }, { ok: false, missing: 'b' }],
    ['counts a blank cell as missing', '{{a}}', { a: ' \t' }, { ok: false, missing: 'a' }],
    ['does not take inherited properties for columns', '{{constructor}}', {}, { ok: false, missing: 'constructor' }],
  ])('%s', (_what, template, vars, expected) => {
    expect(render(template, vars)).toEqual(expected);
  });

  it('lists the distinct columns a text uses, in order', () => {
    expect(placeholderColumns('{{b}} {{A}} {{b}}')).toEqual(['b', 'a']);
  });
});

describe('columnsUsed', () => {
  it("lists every column the job's text, template and custom fields use", () => {
    const job = makeJob({ template: TEMPLATE, text: TEXT }, { after_send: { custom_fields: { city: '{{City}}', c: 'fixed' } } });
    expect(columnsUsed(job)).toEqual(['name', 'coupon', 'city']);
  });
});

describe('renderCustomFields', () => {
  it("fills the after-send custom fields from the contact's columns", () => {
    const job = makeJob({ text: 'hi' }, { after_send: { custom_fields: { campaign: 'bf-2026', code: '{{coupon}}' } } });
    expect(renderCustomFields(makeContact(), job)).toEqual({ ok: true, values: { campaign: 'bf-2026', code: 'BF10' } });
    expect(renderCustomFields(makeContact({ name: 'Ana' }), job)).toEqual({ ok: false, missing: 'coupon' });
  });
});
