import type { Message, Template } from '../../api/index.js';
import type { ContactContent } from '../../plan/index.js';

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * Whether a message read back from the platform is this campaign's message to the contact (A34):
 * sent by the company (not the client), and either the contact's filled text exactly, or the
 * contact's template. A message carries no template name, and a platform may list a template
 * message as its body alone or with its header, footer and button labels, in any whitespace; so
 * the template is known by its body filled with the contact's values (`templateShown`). Pure.
 */
export function isCampaignMessage(message: Pick<Message, 'senderType' | 'body' | 'content' | 'contentType'>, content: ContactContent, templates: readonly Template[]): boolean {
  if (message.senderType === 'client') return false;
  const body = squash(message.body || message.content || '');
  if (body === '') return false;
  if (content.text !== undefined && (squash(message.content ?? '') === squash(content.text) || body === squash(content.text))) return true;
  const t = content.template;
  if (!t) return false;
  const listed = templates.find((x) => x.name === t.name && x.language === t.language);
  if (!listed) {
    // Not listed (paused or removed since): the values alone, and only on a message marked as a template.
    const values = Object.values(t.variables).map(squash).filter((v) => v !== '');
    return message.contentType === 'template' && values.length > 0 && values.every((v) => body.includes(v));
  }
  return templateShown(body, listed, t.variables);
}

/**
 * Whether `shown` (whitespace squashed) is the listed template filled with `variables`, as a message
 * list may show it. Its body, filled, must be in it:
 * - a body with fixed text of its own: anywhere, whatever is around it (header, footer, button labels, or
 *   nothing), but not inside a longer value: where the body starts or ends with a placeholder, the
 *   character beyond is no letter or digit (`BF1` is not `BF10`);
 * - a body of placeholders only (`{{1}}`): the values alone say nothing of which message they came in,
 *   so the whole message must be the template's own texts and nothing else: the body, and any of the
 *   other components' texts (header before, footer and button labels after, in order), whitespace aside.
 * A template with no component marked BODY: every fixed piece of its texts and every value somewhere in it.
 */
function templateShown(shown: string, template: Pick<Template, 'components'>, variables: Readonly<Record<string, string>>): boolean {
  const parts = templateParts(template);
  const bodyAt = parts.findIndex((p) => p.body);
  const bodyPart = parts[bodyAt];
  if (bodyPart === undefined) return everyPiece(shown, parts, variables);
  const body = bodyPart.text;
  const filled = fill(body, variables);
  if (filled === undefined || filled === '') return false;
  if (squash(body.replace(PLACEHOLDER, '')) === '') {
    const piece = (text: string): string | undefined => {
      const f = fill(text, variables);
      return f === undefined || f === '' ? undefined : escape(f);
    };
    const optional = (texts: string[]) => texts.map(piece).filter((p) => p !== undefined).map((p) => `(?:\\s*${p})?`).join('');
    const whole = `^${optional(parts.slice(0, bodyAt).map((p) => p.text))}\\s*${escape(filled)}${optional(parts.slice(bodyAt + 1).map((p) => p.text))}$`;
    return new RegExp(whole, 'u').test(shown);
  }
  const open = /^\s*\{\{\s*\d+\s*\}\}/.test(body);
  const close = /\{\{\s*\d+\s*\}\}\s*$/.test(body);
  for (let at = shown.indexOf(filled); at >= 0; at = shown.indexOf(filled, at + 1)) {
    if (open && wordChar(shown[at - 1])) continue;
    if (close && wordChar(shown[at + filled.length])) continue;
    return true;
  }
  return false;
}

interface Part {
  text: string;
  body: boolean;
}

/**
 * A template's texts in order (their shapes are not shown): each component's `text` and the `text` of
 * anything inside it (button labels); `body` marks the texts of a component whose `type` is BODY.
 */
function templateParts(template: Pick<Template, 'components'>): Part[] {
  const out: Part[] = [];
  const visit = (value: unknown, body: boolean, key?: string): void => {
    if (typeof value === 'string') {
      if (key === 'text') out.push({ text: value, body });
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v, body);
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) visit(v, body, k);
    }
  };
  for (const component of template.components) {
    const type = component.type;
    visit(component, typeof type === 'string' && type.toUpperCase() === 'BODY');
  }
  return out;
}

/** The rule for a template whose body is not marked: every fixed piece of its texts and every value in `shown`. */
function everyPiece(shown: string, parts: Part[], variables: Readonly<Record<string, string>>): boolean {
  const values = Object.values(variables).map(squash).filter((v) => v !== '');
  const fixed = parts.flatMap((p) => p.text.split(PLACEHOLDER_SPLIT)).map(squash).filter((piece) => piece !== '');
  return fixed.every((piece) => shown.includes(piece)) && values.every((v) => shown.includes(v));
}

const PLACEHOLDER_SPLIT = /\{\{\s*\d+\s*\}\}/;

/** A text with its placeholders filled, squashed; undefined when a placeholder has no value. */
function fill(text: string, variables: Readonly<Record<string, string>>): string | undefined {
  let missing = false;
  const filled = text.replace(PLACEHOLDER, (_, n: string) => {
    const value = variables[n];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : squash(filled);
}

function wordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whitespace runs as one space, trimmed: line breaks between components are the platform's choice. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
