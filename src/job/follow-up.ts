import { z } from 'zod';
import { says, text } from './fields.js';

/**
 * `follow_up`: a job whose audience is an earlier job's contacts in some outcomes, instead of a list.
 * The contacts' rows (name, variables) are the earlier job's, read from its list.
 */

/** What became of a contact of the earlier job, as a follow-up picks them. */
export const FOLLOW_UP_OUTCOMES = ['not_delivered', 'delivered_not_read', 'read_not_replied', 'replied', 'failed_retryable'] as const;
export type FollowUpWho = (typeof FOLLOW_UP_OUTCOMES)[number];

const whoError = says(`a list of one or more of ${FOLLOW_UP_OUTCOMES.map((o) => `"${o}"`).join(', ')}, e.g. ["delivered_not_read"]`);

export const followUpSchema = z
  .strictObject(
    {
      job: text('the name of an earlier job of the same store, e.g. "bf-2026"', 'name the earlier job, e.g. "job": "bf-2026"').describe(
        'The earlier job (its name) whose contacts this one follows up',
      ),
      who: z
        .array(z.enum(FOLLOW_UP_OUTCOMES, { error: whoError }), { error: whoError })
        .min(1, { error: whoError })
        .transform((list) => [...new Set(list)])
        .describe(
          'Which of its contacts: not_delivered (accepted, never delivered), delivered_not_read, read_not_replied, replied, failed_retryable (a send failure that may pass)',
        ),
      after_hours: z
        .number({ error: says('a number of hours from 0 to 8760, e.g. 48') })
        .min(0, { error: says('a number of hours from 0 to 8760, e.g. 48') })
        .max(8760, { error: says('a number of hours from 0 to 8760, e.g. 48') })
        .default(0)
        .describe('Only contacts whose first message is at least this many hours old (default 0)'),
    },
    { error: says('an object such as { "job": "bf-2026", "who": ["delivered_not_read"], "after_hours": 48 }') },
  )
  .describe('Take the audience from an earlier job of the same store instead of a contact list');

export type FollowUp = z.output<typeof followUpSchema>;

/** The outcomes `track` must have read to be told apart (a reply or a failed send needs no tracking). */
export function whoNeedsTracking(who: readonly FollowUpWho[]): boolean {
  return who.some((w) => w === 'not_delivered' || w === 'delivered_not_read' || w === 'read_not_replied');
}
