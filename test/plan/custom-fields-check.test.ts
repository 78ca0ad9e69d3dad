import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../src/api/index.js';
import { checkCustomFields } from '../../src/plan/custom-fields-check.js';

/** Fields as GET /company/{id}/crm-custom-fields lists them. */
const field = (key: string, name: string, more: Partial<CustomField> = {}): CustomField => ({
  id: 1,
  company_id: 1,
  name,
  key,
  type: 'text',
  required: false,
  options: [],
  active: true,
  ...more,
});

const FIELDS: CustomField[] = [
  field('campaign', 'Campaign'),
  field('coupon', 'Coupon code'),
  field('tier', 'Customer tier', { type: 'select', options: ['Bronze', 'Silver', 'Gold'] }),
  field('legacy_source', 'Source (old)', { active: false }),
];

describe('checkCustomFields: the job\'s after_send.custom_fields against the company\'s CRM fields', () => {
  it('finds nothing wrong with known, active fields, fixed values among the options and templated values', () => {
    expect(checkCustomFields({ campaign: 'bf-2026', coupon: '{{coupon}}', tier: 'Gold' }, FIELDS)).toEqual([]);
    expect(checkCustomFields({ tier: '{{ tier }}' }, FIELDS)).toEqual([]); // filled per contact: not checkable here
    expect(checkCustomFields({}, [])).toEqual([]);
  });

  it('refuses an unknown key, listing the keys that exist with their names', () => {
    expect(checkCustomFields({ campaing: 'bf' }, FIELDS)).toEqual([
      'after_send.custom_fields.campaing: the company has no CRM custom field with the key "campaing"; use one of its keys: "campaign" (Campaign), "coupon" (Coupon code), "tier" (Customer tier), "legacy_source" (Source (old))',
    ]);
  });

  it('points at the key that differs only in case, and says when the company has no fields at all', () => {
    expect(checkCustomFields({ Campaign: 'bf' }, FIELDS)).toEqual([
      'after_send.custom_fields.Campaign: the company has no CRM custom field with the key "Campaign"; keys are case-sensitive: did you mean "campaign"?',
    ]);
    expect(checkCustomFields({ 'my key': 'x' }, [])).toEqual([
      'after_send.custom_fields["my key"]: the company has no CRM custom field with the key "my key"; it has none: create the field in the platform first, or remove it from the job',
    ]);
  });

  it('refuses an inactive field', () => {
    expect(checkCustomFields({ legacy_source: 'outreach' }, FIELDS)).toEqual([
      'after_send.custom_fields.legacy_source: the CRM custom field "legacy_source" (Source (old)) is inactive; activate it in the platform or remove it from the job',
    ]);
  });

  it('refuses a fixed value that is not among the field\'s options, naming them', () => {
    expect(checkCustomFields({ tier: 'Platinum' }, FIELDS)).toEqual([
      'after_send.custom_fields.tier: "Platinum" is not one of the options of "tier" (Customer tier) ("Bronze", "Silver", "Gold"); use one of them, written exactly',
    ]);
    expect(checkCustomFields({ tier: 'gold' }, FIELDS)).toEqual([
      'after_send.custom_fields.tier: "gold" is not one of the options of "tier" (Customer tier) ("Bronze", "Silver", "Gold"); write it exactly "Gold"',
    ]);
  });

  it('reports every problem, one sentence each, in the job\'s order', () => {
    const problems = checkCustomFields({ nope: 'x', tier: 'Platinum', legacy_source: 'y', campaign: 'ok' }, FIELDS);
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'after_send.custom_fields.nope',
      'after_send.custom_fields.tier',
      'after_send.custom_fields.legacy_source',
    ]);
  });
});
