import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  classifyInbound,
  inboundKeywords,
  keywordsFromEnv,
  normaliseKeyword,
} from '../../src/webhook/index.js';

const defaults = keywordsFromEnv({});

describe('classifyInbound with the default keywords', () => {
  it('reads every default opt-out keyword as opt-out and every opt-in keyword as opt-in', () => {
    for (const k of DEFAULT_OPT_OUT_KEYWORDS) expect(classifyInbound(k, defaults), k).toBe('opt_out');
    for (const k of DEFAULT_OPT_IN_KEYWORDS) expect(classifyInbound(k, defaults), k).toBe('opt_in');
  });

  it('has no word in both default lists', () => {
    const out = new Set(DEFAULT_OPT_OUT_KEYWORDS.map(normaliseKeyword));
    expect(DEFAULT_OPT_IN_KEYWORDS.map(normaliseKeyword).filter((k) => out.has(k))).toEqual([]);
  });

  it('ignores case and accents', () => {
    expect(classifyInbound('Descadastrar', defaults)).toBe('opt_out');
    expect(classifyInbound('dar de baja', defaults)).toBe('opt_out');
    expect(classifyInbound('PÁRAR', defaults)).toBe('opt_out');
    expect(classifyInbound('désinscrever', defaults)).toBe('opt_out');
    expect(classifyInbound('stop', defaults)).toBe('opt_out');
    expect(classifyInbound('Sí', defaults)).toBeUndefined();
    expect(classifyInbound('Suscribirme', defaults)).toBe('opt_in');
  });

  it('ignores surrounding space and line breaks, and reads runs of space, dashes and underscores as one space', () => {
    expect(classifyInbound('  STOP \n', defaults)).toBe('opt_out');
    expect(classifyInbound('\tstop all', defaults)).toBe('opt_out');
    expect(classifyInbound('Dar  de   baja', defaults)).toBe('opt_out');
    expect(classifyInbound('opt-out', defaults)).toBe('opt_out');
    expect(classifyInbound('OPT_OUT', defaults)).toBe('opt_out');
    expect(classifyInbound('dar-de-alta', defaults)).toBe('opt_in');
  });

  it('still matches with punctuation or emoji around the keyword', () => {
    expect(classifyInbound('STOP.', defaults)).toBe('opt_out');
    expect(classifyInbound('stop!!', defaults)).toBe('opt_out');
    expect(classifyInbound('¡Baja!', defaults)).toBe('opt_out');
    expect(classifyInbound('"sair"', defaults)).toBe('opt_out');
    expect(classifyInbound('Stop 🛑', defaults)).toBe('opt_out');
    expect(classifyInbound('START 👍🏽', defaults)).toBe('opt_in');
  });

  it('reads full-width letters as the plain ones', () => {
    expect(classifyInbound('ＳＴＯＰ', defaults)).toBe('opt_out');
  });

  it('does not match a sentence that contains a keyword', () => {
    expect(classifyInbound('please stop sending me this', defaults)).toBeUndefined();
    expect(classifyInbound('STOP sending', defaults)).toBeUndefined();
    expect(classifyInbound("don't stop", defaults)).toBeUndefined();
    expect(classifyInbound('stop, please', defaults)).toBeUndefined();
    expect(classifyInbound('stop stop', defaults)).toBeUndefined();
    expect(classifyInbound('yes I want to start', defaults)).toBeUndefined();
  });

  it('does not match a keyword spelt apart or inside a word', () => {
    expect(classifyInbound('S T O P', defaults)).toBeUndefined();
    expect(classifyInbound('stopped', defaults)).toBeUndefined();
    expect(classifyInbound('nonstop', defaults)).toBeUndefined();
  });

  it('reads empty, blank, punctuation-only and emoji-only texts as nothing', () => {
    for (const text of ['', '   ', '!!!', '🛑', '\n']) expect(classifyInbound(text, defaults)).toBeUndefined();
  });
});

describe('keywordsFromEnv', () => {
  it('replaces the opt-out defaults with OUTREACH_OPTOUT_KEYWORDS, blank entries ignored', () => {
    const k = keywordsFromEnv({ OUTREACH_OPTOUT_KEYWORDS: ' Basta , ,remove me,' });
    expect([...k.optOut]).toEqual(['basta', 'remove me']);
    expect(classifyInbound('BASTA!', k)).toBe('opt_out');
    expect(classifyInbound('Remove  me', k)).toBe('opt_out');
    expect(classifyInbound('STOP', k)).toBeUndefined();
    expect(classifyInbound('START', k)).toBe('opt_in');
  });

  it('replaces the opt-in defaults with OUTREACH_OPTIN_KEYWORDS the same way', () => {
    const k = keywordsFromEnv({ OUTREACH_OPTIN_KEYWORDS: 'quero receber,, ' });
    expect([...k.optIn]).toEqual(['quero receber']);
    expect(classifyInbound('Quero receber', k)).toBe('opt_in');
    expect(classifyInbound('START', k)).toBeUndefined();
    expect(classifyInbound('STOP', k)).toBe('opt_out');
  });

  it('keeps the defaults when a variable is unset, empty or only blanks', () => {
    for (const value of [undefined, '', ' , ,', '!!']) {
      const k = keywordsFromEnv({ OUTREACH_OPTOUT_KEYWORDS: value, OUTREACH_OPTIN_KEYWORDS: value });
      expect(k).toEqual(defaults);
    }
  });

  it('keeps a word that is in both lists only as an opt-out keyword', () => {
    const k = keywordsFromEnv({ OUTREACH_OPTOUT_KEYWORDS: 'stop,end', OUTREACH_OPTIN_KEYWORDS: 'START,End' });
    expect(classifyInbound('end', k)).toBe('opt_out');
    expect([...k.optIn]).toEqual(['start']);
  });
});

describe('inboundKeywords', () => {
  it('normalises the lists it is given', () => {
    const k = inboundKeywords(['Désabonner!'], ['  Réabonner ']);
    expect(classifyInbound('DESABONNER', k)).toBe('opt_out');
    expect(classifyInbound('reabonner', k)).toBe('opt_in');
  });
});
