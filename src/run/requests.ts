import type { ApiClient } from '../api/index.js';
import type { Contact } from '../contacts/index.js';
import type { Job } from '../job/index.js';
import type { Media, RenderedTemplate } from '../plan/index.js';

export type StartBody = Parameters<ApiClient['startWhatsapp']>[0];
export type MessageBody = Parameters<ApiClient['sendMessage']>[1];
export type TemplateBody = Parameters<ApiClient['sendTemplate']>[1];

/** What goes out as the first message, once the planner has chosen it. */
export type Payload =
  | { kind: 'template'; template: RenderedTemplate }
  | { kind: 'text'; text: string; inlineMedia?: Media };

/** start-whatsapp's body for one contact: the only way to reach someone who never talked to the company. */
export function startBody(job: Job, contact: Contact, payload: Payload, channelId: number = job.channel_id): StartBody {
  const common = {
    channel_id: channelId,
    phone: contact.phone,
    ...(contact.name ? { name: contact.name } : {}),
    ...(contact.lastname ? { lastname: contact.lastname } : {}),
    ...(job.conversation.topic !== undefined ? { topic: job.conversation.topic } : {}),
    ...(job.conversation.pipeline_id !== undefined ? { pipeline_id: job.conversation.pipeline_id } : {}),
    ...(job.conversation.pipeline_stage_id !== undefined ? { pipeline_stage_id: job.conversation.pipeline_stage_id } : {}),
  };
  if (payload.kind === 'template') {
    return {
      ...common,
      send_type: 'template',
      template_name: payload.template.name,
      language: payload.template.language,
      variables: payload.template.variables,
    };
  }
  return {
    ...common,
    send_type: 'text',
    text: payload.text,
    ...(payload.inlineMedia
      ? {
          content_type: payload.inlineMedia.content_type,
          file_url: payload.inlineMedia.url,
          ...(payload.inlineMedia.file_name ? { file_name: payload.inlineMedia.file_name } : {}),
        }
      : {}),
  };
}

/** wba-send-template's body on a known conversation (mirrors start-whatsapp's template fields, A5). */
export function templateBody(template: RenderedTemplate): TemplateBody {
  return { template_name: template.name, language: template.language, variables: template.variables };
}

/** A free-text message on a known conversation. */
export function textBody(text: string): MessageBody {
  return { content: text, content_type: 'text' };
}

/** A media message on a known conversation (accepted on every channel type). */
export function mediaBody(media: Media): MessageBody {
  return {
    content_type: media.content_type,
    file_url: media.url,
    ...(media.file_name ? { file_name: media.file_name } : {}),
  };
}
