import type { Funnel } from '../../app/index.js';
import { count, percent, type ForPeople } from '../../locale/people.js';

/** The funnel for people: sent → delivered → read → replied with counts and shares, then the delivery failures by reason. */
export function formatFunnel(f: Funnel, p: Pick<ForPeople, 'locale'> = { locale: undefined }): string {
  const n = (x: number) => count(p, x);
  const ofSent = (x: number, sent: number) => percent(p, sent > 0 ? x / sent : 0);
  const width = Math.max(...[f.sent, f.delivered, f.read, f.replied, f.failed].map((x) => n(x).length));
  const row = (name: string, x: number, share = true) => `  ${name.padEnd(14)}${n(x).padStart(width)}${share ? `  ${ofSent(x, f.sent).padStart(6)}` : ''}`;
  const lines = ['funnel (of the sent)', row('sent', f.sent, false), row('delivered', f.delivered), row('read', f.read), row('replied', f.replied), row('not delivered', f.failed)];
  const untracked = f.sent - f.tracked;
  if (untracked > 0) lines.push(`  (${n(untracked)} sent messages not read back yet: run \`outreach track\`)`);
  if (f.failures.length > 0) {
    lines.push('delivery failures by reason');
    const w = Math.max(...f.failures.map((x) => n(x.count).length));
    for (const x of f.failures) lines.push(`  ${n(x.count).padStart(w)}  ${x.code ?? 'no code'} ${x.class}: ${x.label}`);
  }
  return `${lines.join('\n')}\n`;
}
