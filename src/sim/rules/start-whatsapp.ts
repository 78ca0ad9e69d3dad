import { LANGUAGE_PATTERN, PHONE_PATTERN } from '../assumptions.js';
import { invalid } from '../http.js';
import type { SimChannel } from '../types.js';
import {
  asObject,
  optInt,
  optString,
  optStringMap,
  reqInt,
  reqString,
  type Body,
} from '../validate.js';
import { checkMedia, checkTextLength } from './content.js';

export type Outgoing =
  | { kind: 'template'; name: string; language: string | undefined; variables: Record<string, string> }
  | { kind: 'text'; text: string; contentType: string; fileUrl?: string; fileName?: string };

export interface StartRequest {
  channel: SimChannel;
  phone: string;
  name?: string;
  lastname?: string;
  outgoing: Outgoing;
  topic?: string;
  pipelineId?: number;
  pipelineStageId?: number;
}

/**
 * Every 422 of start-whatsapp, checked before anything is created (documented rules 2 and 3, A21, A29).
 * Throws an HttpError(422); returns the request in typed form.
 */
export function parseStartWhatsapp(raw: unknown, channelOf: (id: number) => SimChannel | undefined): StartRequest {
  const body = asObject(raw);
  const channelId = reqInt(body, 'channel_id');
  const channel = channelOf(channelId);
  if (!channel) invalid(`The selected channel_id ${channelId} is invalid.`);
  const phone = reqString(body, 'phone');
  if (!PHONE_PATTERN.test(phone)) invalid('The phone field must be a phone number with a leading + and country code.');
  const sendType = reqString(body, 'send_type');
  if (sendType !== 'template' && sendType !== 'text') invalid('The send_type field must be template or text.');

  const official = channel.type === 'wba' || channel.type === 'whatsapp';
  if (!official && sendType === 'template') invalid('send_type template is only available on wba/whatsapp channels.');
  if (official)
    for (const media of ['content_type', 'file_url', 'file_name'])
      if (body[media] !== undefined && body[media] !== null)
        invalid(`The ${media} field is only available on ww channels; send media through POST /chat/conversations/{id}/messages.`);

  const request: StartRequest = {
    channel,
    phone,
    outgoing: sendType === 'template' ? templateOutgoing(body) : textOutgoing(body),
  };
  const name = optString(body, 'name');
  const lastname = optString(body, 'lastname');
  const topic = optString(body, 'topic');
  const pipelineId = optInt(body, 'pipeline_id');
  const pipelineStageId = optInt(body, 'pipeline_stage_id');
  if (name !== undefined) request.name = name;
  if (lastname !== undefined) request.lastname = lastname;
  if (topic !== undefined) request.topic = topic;
  if (pipelineId !== undefined) request.pipelineId = pipelineId;
  if (pipelineStageId !== undefined) request.pipelineStageId = pipelineStageId;
  return request;
}

/** Template fields shared with wba-send-template (A5). */
export function templateOutgoing(body: Body): Outgoing & { kind: 'template' } {
  const name = reqString(body, 'template_name');
  const language = optString(body, 'language');
  if (language !== undefined && !LANGUAGE_PATTERN.test(language))
    invalid('The language field must be a language code of the form xx_XX.');
  return { kind: 'template', name, language, variables: optStringMap(body, 'variables') ?? {} };
}

function textOutgoing(body: Body): Outgoing & { kind: 'text' } {
  const text = reqString(body, 'text');
  checkTextLength('text', text);
  const fileUrl = optString(body, 'file_url');
  const fileName = optString(body, 'file_name');
  const contentType = checkMedia(optString(body, 'content_type'), fileUrl, 'text');
  const outgoing: Outgoing & { kind: 'text' } = { kind: 'text', text, contentType };
  if (fileUrl !== undefined) outgoing.fileUrl = fileUrl;
  if (fileName !== undefined) outgoing.fileName = fileName;
  return outgoing;
}
