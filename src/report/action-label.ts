import type { ContactState } from '../checkpoint/types.js';

/** The report's action: `template` / `text`, `+media` when a media follow-up exists, `skip:<reason>` or `defer:<reason>`. */
export function actionLabel(s: ContactState): string {
  if (s.status === 'skipped') return `skip:${s.reason}`;
  if (s.status === 'deferred') return `defer:${s.reason}`;
  if (!s.action) return '';
  return 'media' in s.followups ? `${s.action}+media` : s.action;
}
