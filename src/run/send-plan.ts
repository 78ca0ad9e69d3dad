import type { RequestContent } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import type { Action, Media, RenderedTemplate } from '../plan/index.js';
import type { SendContext } from './context.js';
import { startBody, templateBody, textBody, type Payload } from './requests.js';

/** What one contact's first message is, and what may change between its tries. */
export interface Plan {
  payload: Payload;
  /** Media to send as its own message after the first one. */
  media?: Media;
  mediaLeftOut: boolean;
  fallback?: RenderedTemplate;
}

export function planOf(action: Extract<Action, { kind: 'template' | 'text' }>): Plan {
  if (action.kind === 'template') {
    return { payload: { kind: 'template', template: action.template }, media: action.media?.media, mediaLeftOut: action.mediaLeftOut };
  }
  const inline = action.media?.placement === 'inline' ? action.media.media : undefined;
  return {
    payload: { kind: 'text', text: action.text, ...(inline ? { inlineMedia: inline } : {}) },
    media: action.media?.placement === 'followup' ? action.media.media : undefined,
    mediaLeftOut: false,
    fallback: action.fallbackTemplate,
  };
}

/** What a request with this payload carries, as the journal keeps it (the template's variables, or the text; no media). */
export function contentOf(payload: Payload): RequestContent {
  if (payload.kind === 'text') return { text: payload.text };
  const { name, language, variables } = payload.template;
  return { template: { name, language, variables } };
}

/** Free text refused because the window closed: the template goes instead, and media cannot follow it. */
export function switchToTemplate(plan: Plan): void {
  if (plan.payload.kind !== 'text' || !plan.fallback) return;
  plan.payload = { kind: 'template', template: plan.fallback };
  if (plan.media) plan.mediaLeftOut = true;
  plan.media = undefined;
}

export interface Delivered {
  conversationId?: string;
  clientId?: string;
  messageId: number | string;
}

export function requestFor(
  ctx: SendContext,
  contact: Contact,
  plan: Plan,
  conversationId: string | undefined,
): (signal: AbortSignal) => Promise<Delivered> {
  const { api } = ctx;
  const payload = plan.payload;
  if (conversationId === undefined) {
    return (signal) => api.startWhatsapp(startBody(ctx.job, contact, payload, ctx.pool ? ctx.channel.id : ctx.job.channel_id), { signal });
  }
  if (payload.kind === 'template') {
    return async (signal) => ({ messageId: (await api.sendTemplate(conversationId, templateBody(payload.template), { signal })).id });
  }
  return async (signal) => ({ messageId: (await api.sendMessage(conversationId, textBody(payload.text), { signal })).id });
}
