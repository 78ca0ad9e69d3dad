import { invalid } from '../http.js';
import { asObject, optInt, optString } from '../validate.js';
import { checkMedia, checkTextLength } from './content.js';

export interface MessageRequest {
  content: string;
  contentType: string;
  fileUrl?: string;
  fileName?: string;
  subject?: string;
  replyToId?: number;
  clientMessageId?: string;
}

/** A6: `content` or `file_url` required; content_type defaults to `text`; a text message needs content. */
export function parseMessage(raw: unknown): MessageRequest {
  const body = asObject(raw);
  const content = optString(body, 'content');
  const fileUrl = optString(body, 'file_url');
  if ((content === undefined || content === '') && fileUrl === undefined)
    invalid('The content field is required when file_url is not present.');
  const contentType = checkMedia(optString(body, 'content_type'), fileUrl, 'text');
  if (contentType === 'text' && (content === undefined || content.trim() === ''))
    invalid('The content field is required for a text message.');
  checkTextLength('content', content);
  const request: MessageRequest = { content: content ?? '', contentType };
  const fileName = optString(body, 'file_name');
  const subject = optString(body, 'subject');
  const replyToId = optInt(body, 'reply_to_id');
  const clientMessageId = optString(body, 'client_message_id');
  if (fileUrl !== undefined) request.fileUrl = fileUrl;
  if (fileName !== undefined) request.fileName = fileName;
  if (subject !== undefined) request.subject = subject;
  if (replyToId !== undefined) request.replyToId = replyToId;
  if (clientMessageId !== undefined) request.clientMessageId = clientMessageId;
  return request;
}
