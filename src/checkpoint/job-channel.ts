import type { HeaderEvent } from './types.js';

/**
 * The one number a job sends from, as its pinned content names it (`channel_id`, a number); undefined
 * for a pool (a list: each contact's number is in its state) or a header that does not say.
 */
export function jobChannel(header: HeaderEvent | undefined): number | undefined {
  const id = header?.content['channel_id'];
  return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}
