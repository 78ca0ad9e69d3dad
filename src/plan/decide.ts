import type { Contact } from '../contacts/types.js';
import type { Job } from '../job/index.js';
import { render } from './render.js';
import type { Action, ChannelInfo, Media, RenderedTemplate, WindowInfo } from './types.js';
import { isWindowOpen, latestInbound } from './window.js';

/** The longest text the platform takes (A29), in UTF-16 units as JavaScript counts. */
export const MAX_TEXT_LENGTH = 4096;

/** The parts of a job `decide` reads. */
export type PlanJob = Pick<Job, 'message' | 'window' | 'after_send'>;

/** One piece of text to fill for a contact, and where it comes from in the job (for the reject's detail). */
interface Part {
  label: string;
  source: string;
  /** The template position this part fills. */
  position?: string;
}

/**
 * What to send one contact at `now`, given what is known of its 24-hour window. Pure: called once
 * for the plan and again right before each send, so a window that closed meanwhile turns text
 * into the template.
 *
 * Every part that could go to this contact is filled before anything is chosen to go: the chosen
 * message, its fallback template, and the after-send custom fields. One missing value rejects the
 * contact, so neither a window closing mid-run nor the after-send step can ever send a blank.
 */
export function decide(contact: Contact, channel: ChannelInfo, job: PlanJob, now: number, window: WindowInfo): Action {
  const { template, text, prefer, media } = job.message;
  const vars = contact.vars;

  if (channel.type === 'ww') {
    if (text === undefined) return { kind: 'skip', reason: 'no_text_for_ww' };
    const filled = fill([{ label: 'message.text', source: text }, ...customFieldParts(job)], vars);
    if (!filled.ok) return filled.reject;
    const tooLong = lengthReject(filled.values[0]!);
    if (tooLong) return tooLong;
    return { kind: 'text', text: filled.values[0]!, ...(media ? { media: { media: copyMedia(media), placement: 'inline' } } : {}) };
  }

  const open = isWindowOpen(latestInbound(contact.lastInboundAt, window.lastInboundAt), now, job.window.safety_margin_minutes);
  const useText = open && text !== undefined && (prefer === 'text' || !template);

  if (useText) {
    const templateParts = template ? variableParts(template.variables) : [];
    const filled = fill([{ label: 'message.text', source: text }, ...templateParts, ...customFieldParts(job)], vars);
    if (!filled.ok) return filled.reject;
    const tooLong = lengthReject(filled.values[0]!);
    if (tooLong) return tooLong;
    return {
      kind: 'text',
      text: filled.values[0]!,
      ...(media ? { media: { media: copyMedia(media), placement: 'followup' } } : {}),
      ...(template ? { fallbackTemplate: renderedTemplate(template, templateParts, filled.values.slice(1)) } : {}),
    };
  }

  if (!template) return { kind: 'skip', reason: 'outside_24h_window' };
  const templateParts = variableParts(template.variables);
  const filled = fill([...templateParts, ...customFieldParts(job)], vars);
  if (!filled.ok) return filled.reject;
  return {
    kind: 'template',
    template: renderedTemplate(template, templateParts, filled.values),
    ...(media && open ? { media: { media: copyMedia(media), placement: 'followup' } } : {}),
    mediaLeftOut: media !== undefined && !open,
  };
}

/**
 * The after-send custom-field values for a contact. `decide` has already checked that they fill
 * for every contact it lets through; a contact it rejected gets `{ ok: false, missing }`.
 */
export function renderCustomFields(
  contact: Contact,
  job: Pick<Job, 'after_send'>,
): { ok: true; values: Record<string, string> } | { ok: false; missing: string } {
  const values: Record<string, string> = {};
  for (const [key, source] of Object.entries(job.after_send.custom_fields)) {
    const r = render(source, contact.vars);
    if (!r.ok) return r;
    values[key] = r.text;
  }
  return { ok: true, values };
}

type Filled = { ok: true; values: string[] } | { ok: false; reject: Extract<Action, { kind: 'reject' }> };

function fill(parts: Part[], vars: Record<string, string>): Filled {
  const values: string[] = [];
  for (const part of parts) {
    const r = render(part.source, vars);
    if (!r.ok) {
      const why = Object.hasOwn(vars, r.missing)
        ? `this contact's "${r.missing}" is empty`
        : `this contact has no "${r.missing}" column`;
      return {
        ok: false,
        reject: { kind: 'reject', reason: `missing_variable:${r.missing}`, detail: `${part.label} uses {{${r.missing}}} but ${why}` },
      };
    }
    values.push(r.text);
  }
  return { ok: true, values };
}

function lengthReject(text: string): Extract<Action, { kind: 'reject' }> | undefined {
  if (text.length <= MAX_TEXT_LENGTH) return undefined;
  return {
    kind: 'reject',
    reason: 'text_too_long',
    detail: `the text is ${text.length} characters once filled in; the platform takes at most ${MAX_TEXT_LENGTH.toLocaleString('en-US')}`,
  };
}

/** Template variables in position order. */
function variableParts(variables: Record<string, string>): Part[] {
  return Object.keys(variables)
    .sort((a, b) => Number(a) - Number(b))
    .map((position) => ({ label: `message.template.variables["${position}"]`, source: variables[position]!, position }));
}

function customFieldParts(job: PlanJob): Part[] {
  return Object.entries(job.after_send.custom_fields).map(([key, source]) => ({
    label: `after_send.custom_fields${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`,
    source,
  }));
}

/**
 * The provider refuses template parameters with line breaks, tabs or runs of spaces, so a value
 * from a contact list is folded onto one line.
 */
function renderedTemplate(
  template: { name: string; language: string },
  parts: Part[],
  values: string[],
): RenderedTemplate {
  const variables: Record<string, string> = {};
  parts.forEach((part, i) => {
    if (part.position !== undefined) variables[part.position] = values[i]!.replace(/\s+/g, ' ').trim();
  });
  return { name: template.name, language: template.language, variables };
}

function copyMedia(media: Media): Media {
  return { url: media.url, content_type: media.content_type, ...(media.file_name ? { file_name: media.file_name } : {}) };
}
