import { MAX_TEXT_LENGTH, MEDIA_CONTENT_TYPES, MIME_PATTERN } from '../assumptions.js';
import { invalid } from '../http.js';

/** A6: `text`, a media kind, or a full MIME type. */
export function isKnownContentType(value: string): boolean {
  return value === 'text' || (MEDIA_CONTENT_TYPES as readonly string[]).includes(value) || MIME_PATTERN.test(value);
}

/** A29: 422 above the text limit. */
export function checkTextLength(field: string, text: string | undefined): void {
  if (text !== undefined && text.length > MAX_TEXT_LENGTH)
    invalid(`The ${field} field must not be greater than ${MAX_TEXT_LENGTH} characters.`);
}

/**
 * S17: a file needs a media content_type (not `text`), and a media content_type needs a file.
 * Returns the content type to store.
 */
export function checkMedia(contentType: string | undefined, fileUrl: string | undefined, fallback: string): string {
  if (contentType !== undefined && !isKnownContentType(contentType))
    invalid('The content_type field must be text, image, video, audio, document or a full MIME type.');
  if (fileUrl !== undefined && (contentType === undefined || contentType === 'text'))
    invalid('The content_type field is required when file_url is present, and must name a media type.');
  if (fileUrl === undefined && contentType !== undefined && contentType !== 'text')
    invalid('The file_url field is required when content_type is a media type.');
  return contentType ?? fallback;
}
