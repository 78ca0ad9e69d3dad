import type { Media, PlannedMedia } from '../types.js';

/**
 * Where the job's media goes: inside start-whatsapp on `ww`; on wba/whatsapp as its own message
 * after the first one, and only while the window is open (a template outside it goes without).
 */
export function mediaPlacement<P extends 'inline' | 'followup'>(media: Media | undefined, placement: P): { media?: PlannedMedia<P> } {
  return media ? { media: { media: copyMedia(media), placement } } : {};
}

function copyMedia(media: Media): Media {
  return { url: media.url, content_type: media.content_type, ...(media.file_name ? { file_name: media.file_name } : {}) };
}
