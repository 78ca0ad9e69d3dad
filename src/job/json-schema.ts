import { z } from 'zod';
import { messageObject, variantObject } from './message.js';
import { jobSchema } from './schema.js';

/** The JSON Schema of a job file as written (defaults optional), published at docs/job.schema.json. */
export function jobJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(jobSchema, {
    io: 'input',
    target: 'draft-2020-12',
    override: (ctx) => {
      // The refinement "a template, a text or both" is code; say it in the schema too, for editors.
      if (ctx.zodSchema === messageObject || ctx.zodSchema === variantObject) {
        ctx.jsonSchema.anyOf = [{ required: ['template'] }, { required: ['text'] }];
      }
    },
  }) as Record<string, unknown>;
}
