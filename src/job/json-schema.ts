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
      // The job's own refinements: an audience (a list, or an earlier job's contacts) and a message (or an experiment).
      const properties = ctx.jsonSchema.properties;
      if (properties !== undefined && 'follow_up' in properties && 'experiment' in properties) {
        ctx.jsonSchema.allOf = [
          { oneOf: [{ required: ['contacts'] }, { required: ['follow_up'] }] },
          { oneOf: [{ required: ['message'] }, { required: ['experiment'] }] },
        ];
      }
    },
  }) as Record<string, unknown>;
}
