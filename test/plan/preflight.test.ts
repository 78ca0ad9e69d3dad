import { describe, expect, it } from 'vitest';
import { needsTemplates, preflight, templatePositions, type ChannelInfo, type TemplateInfo } from '../../src/plan/index.js';
import { ACTIVE_CHANNEL_STATUS } from '../../src/plan/preflight.js';
import { MEDIA, TEMPLATE, TEXT, makeJob } from './fixtures.js';

const CHANNELS: ChannelInfo[] = [
  { id: 10, type: 'wba', name: 'Sales', status: 1 },
  { id: 11, type: 'whatsapp', name: 'Support', status: 1 },
  { id: 12, type: 'ww', name: 'Web', status: 1 },
  { id: 13, type: 'wba', name: 'Old', status: 0 },
];

const body = (text: string) => ({ type: 'BODY', text });
const TEMPLATES: TemplateInfo[] = [
  { name: 'promo_bf', language: 'pt_BR', status: 'APPROVED', components: [body('Oi {{1}}! Seu cupom de Black Friday é {{2}}.')] },
  { name: 'welcome', language: 'en_US', status: 'APPROVED', components: [body('Welcome {{1}}')] },
  { name: 'welcome', language: 'pt_BR', status: 'APPROVED', components: [body('Bem-vindo {{1}}')] },
  {
    name: 'appointment_reminder',
    language: 'en_US',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
      body('Your appointment is on {{2}} at {{3}}.'),
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'See', url: 'https://x.test/{{3}}' }] },
    ],
  },
  { name: 'draft_offer', language: 'pt_BR', status: 'PENDING', components: [body('Oferta {{1}}')] },
  { name: 'old_promo', language: 'pt_BR', status: 'REJECTED', components: [body('Promo')] },
];

function job(channelId: number, message: Record<string, unknown>) {
  return makeJob(message, { channel_id: channelId });
}

describe('preflight against the platform', () => {
  it('passes a wba job whose approved template matches its variables', () => {
    const result = preflight(job(10, { template: TEMPLATE, text: TEXT }), CHANNELS, TEMPLATES);
    expect(result).toEqual({ channel: CHANNELS[0], pool: [CHANNELS[0]], problems: [], warnings: [] });
  });

  it.each<[string, number, Record<string, unknown>, string[]]>([
    [
      'a channel that is not the company\'s, listing its channels',
      99,
      { text: TEXT },
      [
        'channel_id 99 is not a channel of company 1; channels are: 10 (wba, Sales), 11 (whatsapp, Support), 12 (ww, Web), 13 (wba, Old, inactive); run `outreach channels --company-id 1`',
      ],
    ],
    [
      'a ww job without text',
      12,
      { template: TEMPLATE },
      ['message.text: is missing, and channel 12 is a ww channel, which sends text only (no templates); add "text": "…"'],
    ],
    [
      'a template name the account does not have, listing what it has',
      10,
      { template: { ...TEMPLATE, name: 'promo_bx' } },
      [
        'message.template.name: there is no template "promo_bx" on this account; its templates are: appointment_reminder (en_US), draft_offer (pt_BR PENDING), old_promo (pt_BR REJECTED), promo_bf (pt_BR), welcome (en_US, pt_BR)',
      ],
    ],
    [
      'a template in a language it does not exist in',
      11,
      { template: { name: 'welcome', language: 'es_ES', variables: { '1': '{{name}}' } } },
      [
        'message.template.language: template welcome has no es_ES version; it exists in en_US (APPROVED), pt_BR (APPROVED): set the language to one of those',
      ],
    ],
    [
      'a template that is not approved',
      10,
      { template: { name: 'draft_offer', language: 'pt_BR', variables: { '1': '{{name}}' } } },
      [
        'message.template: draft_offer (pt_BR) is PENDING, not APPROVED; only approved templates can be sent: wait for the platform to approve it, or choose an approved template',
      ],
    ],
    [
      'variables that do not match the template\'s placeholders',
      10,
      { template: { ...TEMPLATE, variables: { '1': '{{name}}' } } },
      [
        'message.template.variables: template promo_bf (pt_BR) has placeholders {{1}}, {{2}}; the job gives 1; give exactly one variable for each, keyed "1", "2"',
      ],
    ],
    [
      'variables for a template without placeholders',
      10,
      { template: { name: 'old_promo', language: 'pt_BR', variables: { '1': 'x' } } },
      [
        'message.template: old_promo (pt_BR) is REJECTED, not APPROVED; only approved templates can be sent: edit it in the platform and submit it again, or choose an approved template',
        'message.template.variables: template old_promo (pt_BR) has no placeholders; the job gives 1; remove message.template.variables',
      ],
    ],
    [
      'a text that is too long before its placeholders are even filled',
      12,
      { text: `${'x'.repeat(4097)}{{name}}` },
      ['message.text: is 4097 characters before its placeholders are filled; the platform takes at most 4,096: shorten it'],
    ],
  ])('refuses %s', (_what, channelId, message, problems) => {
    expect(preflight(job(channelId, message), CHANNELS, TEMPLATES).problems).toEqual(problems);
  });

  it('counts distinct placeholders across header, body and buttons', () => {
    expect(templatePositions(TEMPLATES[3]!)).toEqual([1, 2, 3]);
    const ok = { template: { name: 'appointment_reminder', language: 'en_US', variables: { '1': 'a', '2': 'b', '3': 'c' } } };
    expect(preflight(job(10, ok), CHANNELS, TEMPLATES).problems).toEqual([]);
  });

  it.each<[string, number, Record<string, unknown>, string[]]>([
    ['a template on ww, which is not used', 12, { template: TEMPLATE, text: TEXT }, ['message.template is not used: channel 12 is a ww channel, which sends text only']],
    [
      'a text-only wba job, which skips contacts outside the window',
      10,
      { text: TEXT },
      ['message.text only reaches contacts inside the 24-hour window on wba channels; with no message.template, the others are skipped'],
    ],
    [
      'media on wba, which goes only inside the window',
      10,
      { template: TEMPLATE, text: TEXT, media: MEDIA },
      [
        'message.media goes only to contacts inside the 24-hour window, as a follow-up message after the first one; contacts who get the template get no media',
      ],
    ],
  ])('warns about %s', (_what, channelId, message, warnings) => {
    const result = preflight(job(channelId, message), CHANNELS, TEMPLATES);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual(warnings);
  });

  it('refuses a channel whose known status is anything but active (A27), naming it; lets an unknown status through', () => {
    const channels: ChannelInfo[] = [
      { id: 20, type: 'wba', name: 'Suspended', status: 2 },
      { id: 21, type: 'wba', name: 'Unknown' },
    ];
    expect(ACTIVE_CHANNEL_STATUS).toBe(1);
    expect(preflight(job(20, { template: TEMPLATE }), channels, TEMPLATES).problems).toEqual([
      'channel_id 20: channel 20 (wba, Suspended, inactive) is inactive (status 2), so the platform refuses every send; activate it in the platform or choose another channel (outreach channels --company-id 1)',
    ]);
    expect(preflight(job(21, { template: TEMPLATE }), channels, TEMPLATES)).toMatchObject({ problems: [], warnings: [] });
  });
});

describe('preflight offline', () => {
  it('takes the channel type from --channel-type and skips the template checks with a warning', () => {
    const result = preflight(job(10, { template: TEMPLATE, text: TEXT }), undefined, undefined, 'wba');
    expect(result).toEqual({
      channel: { id: 10, type: 'wba' },
      pool: [{ id: 10, type: 'wba' }],
      problems: [],
      warnings: ['templates not checked (offline): make sure promo_bf (pt_BR) is APPROVED and has exactly the placeholders {{1}}, {{2}}'],
    });
  });

  it('asks for --channel-type when it is not given', () => {
    expect(preflight(job(10, { text: TEXT }), undefined, undefined).problems).toEqual([
      'channel_id 10: its type is unknown offline; pass --channel-type wba, whatsapp or ww (the type of channel 10)',
    ]);
  });

  it('still refuses a ww job without text', () => {
    expect(preflight(job(12, { template: TEMPLATE }), undefined, undefined, 'ww').problems).toHaveLength(1);
  });

  it('prefers the platform\'s channel type over --channel-type, with a warning', () => {
    const result = preflight(job(10, { template: TEMPLATE }), CHANNELS, TEMPLATES, 'ww');
    expect(result.channel.type).toBe('wba');
    expect(result.warnings).toEqual(['--channel-type ww is ignored: the platform says channel 10 is wba']);
  });
});

describe('preflight of message.variants', () => {
  const MX = { ...TEMPLATE, language: 'es_MX' };
  const TEMPLATES_ES: TemplateInfo[] = [
    ...TEMPLATES,
    { name: 'promo_bf', language: 'es_MX', status: 'APPROVED', components: [body('¡Hola {{1}}! Tu cupón es {{2}}.')] },
    { name: 'promo_bf', language: 'es_AR', status: 'PENDING', components: [body('¡Hola {{1}}! Tu cupón es {{2}}.')] },
  ];
  const variantJob = (channelId: number, variants: unknown[], message: Record<string, unknown> = { template: TEMPLATE, text: TEXT }) =>
    makeJob({ ...message, variants }, { channel_id: channelId, columns: { language: 'language' } });

  it('passes variants whose approved templates match their variables', () => {
    const result = preflight(variantJob(10, [{ when: { countries: ['MX'] }, template: MX, text: 'Hola {{name}}' }]), CHANNELS, TEMPLATES_ES);
    expect(result).toEqual({ channel: CHANNELS[0], pool: [CHANNELS[0]], problems: [], warnings: [] });
  });

  it('checks every variant\'s template exactly as the job\'s own, naming the variant', () => {
    const variants = [
      { when: { countries: ['MX'] }, template: { ...MX, variables: { '1': '{{name}}' } } },
      { when: { countries: ['AR'] }, template: { ...MX, language: 'es_AR' } },
      { when: { language: 'es' }, template: { ...MX, language: 'es_CO' } },
      { when: { language: 'en' }, template: { ...MX, name: 'promo_xx' } },
    ];
    expect(preflight(variantJob(10, variants), CHANNELS, TEMPLATES_ES).problems).toEqual([
      'message.variants[0].template.variables: template promo_bf (es_MX) has placeholders {{1}}, {{2}}; the job gives 1; give exactly one variable for each, keyed "1", "2"',
      'message.variants[1].template: promo_bf (es_AR) is PENDING, not APPROVED; only approved templates can be sent: wait for the platform to approve it, or choose an approved template',
      'message.variants[2].template.language: template promo_bf has no es_CO version; it exists in pt_BR (APPROVED), es_MX (APPROVED), es_AR (PENDING): set the language to one of those',
      expect.stringMatching(/^message\.variants\[3\]\.template\.name: there is no template "promo_xx" on this account; its templates are: /),
    ]);
  });

  it('refuses a variant without text on ww, and warns of a variant without a template on wba', () => {
    const variants = [{ when: { countries: ['MX'] }, template: MX }];
    expect(preflight(variantJob(12, variants), CHANNELS, TEMPLATES_ES).problems).toEqual([
      'message.variants[0].text: is missing, and channel 12 is a ww channel, which sends text only (no templates); add "text": "…"',
    ]);
    const textOnly = [{ when: { countries: ['MX'] }, text: 'Hola {{name}}' }];
    expect(preflight(variantJob(10, textOnly), CHANNELS, TEMPLATES_ES).warnings).toEqual([
      'message.variants[0].text only reaches contacts inside the 24-hour window on wba channels; with no message.variants[0].template, the others are skipped',
    ]);
  });

  it('names every message with media in one warning', () => {
    const variants = [{ when: { countries: ['MX'] }, template: MX, media: MEDIA }];
    expect(preflight(variantJob(10, variants, { template: TEMPLATE, media: MEDIA }), CHANNELS, TEMPLATES_ES).warnings).toEqual([
      'message.media and message.variants[0].media go only to contacts inside the 24-hour window, as a follow-up message after the first one; contacts who get the template get no media',
    ]);
  });

  it('offline, warns once about each template it could not check, naming the variants that use it', () => {
    const variants = [
      { name: 'mexico', when: { countries: ['MX'] }, template: MX },
      { when: { language: 'es' }, template: MX },
      { when: { countries: ['BR'] }, template: TEMPLATE },
    ];
    const result = preflight(variantJob(10, variants), undefined, undefined, 'wba');
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([
      'templates not checked (offline): make sure promo_bf (pt_BR) is APPROVED and has exactly the placeholders {{1}}, {{2}}',
      'templates not checked (offline): make sure promo_bf (es_MX), of message.variants[0] and message.variants[1], is APPROVED and has exactly the placeholders {{1}}, {{2}}',
    ]);
  });

  it('refuses, online, a template the caller did not fetch the account\'s templates for', () => {
    const job = variantJob(10, [{ when: { countries: ['MX'] }, template: MX }], { text: TEXT });
    expect(preflight(job, CHANNELS, undefined).problems).toEqual([
      'message.variants[0].template: cannot be checked, as the account\'s templates were not fetched; this is a bug, please report it',
    ]);
  });

  it('needs the account\'s templates when the job\'s message or any variant has one', () => {
    expect(needsTemplates(variantJob(10, [], { text: TEXT }))).toBe(false);
    expect(needsTemplates(variantJob(10, [{ when: { countries: ['MX'] }, template: MX }], { text: TEXT }))).toBe(true);
    expect(needsTemplates(variantJob(10, [], { template: TEMPLATE }))).toBe(true);
  });
});
