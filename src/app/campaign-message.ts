import type { Message, Template } from '../api/index.js';
import type { ContactContent } from '../plan/index.js';

/**
 * Whether a message read back from the platform is this campaign's message to the contact (A34):
 * sent by the company (not the client), and either the contact's filled text exactly, or the
 * contact's template: every fixed piece of the template's text (when the approved template is
 * listed) and every filled variable in its body. A message carries no template name, so the
 * template's own words and the contact's values are what identify it. Pure.
 */
export function isCampaignMessage(message: Pick<Message, 'senderType' | 'body' | 'content' | 'contentType'>, content: ContactContent, templates: readonly Template[]): boolean {
  if (message.senderType === 'client') return false;
  const body = squash(message.body || message.content || '');
  if (body === '') return false;
  if (content.text !== undefined && (squash(message.content ?? '') === squash(content.text) || body === squash(content.text))) return true;
  const t = content.template;
  if (!t) return false;
  const values = Object.values(t.variables).map(squash).filter((v) => v !== '');
  const listed = templates.find((x) => x.name === t.name && x.language === t.language);
  if (!listed) {
    // Not listed (paused or removed since): the values alone, and only on a message marked as a template.
    return message.contentType === 'template' && values.length > 0 && values.every((v) => body.includes(v));
  }
  const fixed = templateTexts(listed).flatMap((text) => text.split(/\{\{\s*\d+\s*\}\}/)).map(squash).filter((piece) => piece !== '');
  return fixed.every((piece) => body.includes(piece)) && values.every((v) => body.includes(v));
}

/** The `text` strings of a template's components (their shapes are not shown; any depth). */
function templateTexts(template: Pick<Template, 'components'>): string[] {
  const out: string[] = [];
  const visit = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      if (key === 'text') out.push(value);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) visit(v, k);
    }
  };
  visit(template.components);
  return out;
}

/** Whitespace runs as one space, trimmed: line breaks between components are the platform's choice. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
