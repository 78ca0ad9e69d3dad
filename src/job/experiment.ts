import { z } from 'zod';
import { ratio, says } from './fields.js';
import { messageSchema, type Message } from './message.js';

/**
 * `experiment`, in place of `message`: two or more arms, each a message block; a share of the audience
 * gets one arm each (a stable random split), the rest waits for the decision and then gets the winner.
 */

export const EXPERIMENT_METRICS = ['delivered', 'read', 'replied'] as const;
export type ExperimentMetric = (typeof EXPERIMENT_METRICS)[number];

const armName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,29}$/, {
  error: (iss) => `arm name ${JSON.stringify(iss.input)} must be a short word of letters, digits, "-" or "_", e.g. "a"`,
});

const experimentObject = z
  .strictObject(
    {
      arms: z
        .record(armName, messageSchema, { error: says('an object of arm name → message, e.g. { "a": { "template": { … } }, "b": { … } }') })
        .describe('The messages tried, by arm name; each is a message block (template, text, variants)'),
      test_share: z
        .number({ error: says('a number above 0 and below 1, e.g. 0.2') })
        .gt(0, { error: says('a number above 0 and below 1, e.g. 0.2') })
        .lt(1, { error: says('a number above 0 and below 1, e.g. 0.2') })
        .describe('The share of the audience the test sends to, split evenly and at random (stably) between the arms'),
      metric: z
        .enum(EXPERIMENT_METRICS, { error: says('"delivered", "read" or "replied"') })
        .default('read')
        .describe('What the arms are compared on: the share of their sent messages delivered, read or replied to'),
      decide_after_hours: z
        .number({ error: says('a number of hours above 0 and at most 720, e.g. 24') })
        .positive({ error: says('a number of hours above 0 and at most 720, e.g. 24') })
        .max(720, { error: says('a number of hours above 0 and at most 720, e.g. 24') })
        .describe('Hours after the test\'s first send when a run decides and sends the winner to the rest'),
      confidence: ratio(0.95)
        .default(0.95)
        .describe('How sure the two-proportion test must be that the better arm is better (else the fallback arm goes)'),
      fallback: z.string({ error: says('the name of one of the arms, e.g. "b"') }).optional().describe('The arm sent to the rest when no arm wins (default the first)'),
    },
    { error: says('an object such as { "arms": { "a": { … }, "b": { … } }, "test_share": 0.2, "decide_after_hours": 24 }') },
  )
  .superRefine((value, ctx) => {
    const names = Object.keys(value.arms);
    if (names.length < 2) {
      ctx.addIssue({ code: 'custom', path: ['arms'], input: value.arms, message: `needs at least two arms to compare, and has ${names.length}; add another, e.g. "b": { "template": { … } }` });
    }
    if (value.fallback !== undefined && !names.includes(value.fallback)) {
      ctx.addIssue({ code: 'custom', path: ['fallback'], input: value.fallback, message: `"${value.fallback}" is not one of the arms (${names.join(', ')}); name one of them` });
    }
  });

export const experimentSchema = experimentObject
  .transform((value) => ({ ...value, fallback: value.fallback ?? Object.keys(value.arms)[0] ?? '' }))
  .describe('An A/B test in place of message: arms tried on test_share of the audience, the winner sent to the rest');

export type Experiment = z.output<typeof experimentSchema>;

/** The first arm's message: what a job without `message` reads where one message stands for all. */
export function firstArm(experiment: { arms: Record<string, Message> }): Message | undefined {
  return Object.values(experiment.arms)[0];
}
