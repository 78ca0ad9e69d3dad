import type { Action } from './types.js';

/** The report's `action` column: template, template+media, template (media left out), text, text+media, skip:<reason>, reject:<reason>. */
export function actionLabel(action: Action): string {
  switch (action.kind) {
    case 'template':
      return action.media ? 'template+media' : action.mediaLeftOut ? 'template (media left out)' : 'template';
    case 'text':
      return action.media ? 'text+media' : 'text';
    case 'skip':
      return `skip:${action.reason}`;
    case 'defer':
      return `defer:${action.reason}`;
    case 'reject':
      return `reject:${action.reason}`;
    default: {
      const never: never = action;
      return never;
    }
  }
}
