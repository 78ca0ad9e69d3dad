import type { ApiClient, StartWhatsappCommon, StartWhatsappTextBody } from '../api/index.js';
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

/**
 * start-whatsapp's body for one contact: the only way to reach someone who never talked to the company.
 * One object per request, its optional fields set in place: it is on every first message's path, where
 * a spread of each optional field made several objects a request.
 */
export function startBody(job: Job, contact: Contact, payload: Payload, channelId: number = job.channel_id): StartBody {
  const { phone } = contact;
  if (payload.kind === 'template') {
    const { name: template_name, language, variables } = payload.template;
    return withCommon({ channel_id: channelId, phone, send_type: 'template', template_name, language, variables }, job, contact);
  }
  const body: StartWhatsappTextBody = withCommon({ channel_id: channelId, phone, send_type: 'text', text: payload.text }, job, contact);
  const media = payload.inlineMedia;
  if (media) {
    body.content_type = media.content_type;
    body.file_url = media.url;
    if (media.file_name) body.file_name = media.file_name;
  }
  return body;
}

/** Sets the contact's name and the job's conversation fields on a start-whatsapp body, when they are given. */
function withCommon<B extends StartWhatsappCommon>(body: B, job: Job, contact: Contact): B {
  if (contact.name) body.name = contact.name;
  if (contact.lastname) body.lastname = contact.lastname;
  const { topic, pipeline_id, pipeline_stage_id } = job.conversation;
  if (topic !== undefined) body.topic = topic;
  if (pipeline_id !== undefined) body.pipeline_id = pipeline_id;
  if (pipeline_stage_id !== undefined) body.pipeline_stage_id = pipeline_stage_id;
  return body;
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
