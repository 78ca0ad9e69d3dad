import type { Job, MessageContent } from '../job/index.js';
import { MAX_TEXT_LENGTH } from './decide.js';
import { checkTemplate } from './template-check.js';
import type { ChannelInfo, TemplateInfo } from './types.js';

/** One message of the job and where the job has it: `message`, or `message.variants[1]`. */
export interface PlacedMessage {
  path: string;
  content: MessageContent;
}

/** The job's own message, then each variant's, in order; an experiment's: each arm's so (`experiment.arms.b.variants[0]`). */
export function jobMessages(job: Pick<Job, 'message'> & Partial<Pick<Job, 'experiment'>>): PlacedMessage[] {
  const placed = (path: string, message: Job['message']): PlacedMessage[] => [
    { path, content: message },
    ...message.variants.map((variant, i) => ({ path: `${path}.variants[${i}]`, content: variant.message })),
  ];
  if (job.experiment) return Object.entries(job.experiment.arms).flatMap(([arm, message]) => placed(`experiment.arms.${arm}`, message));
  return placed('message', job.message);
}

/** Whether the preflight needs the account's templates: the job's message or one of its variants has one. */
export function needsTemplates(job: Pick<Job, 'message'> & Partial<Pick<Job, 'experiment'>>): boolean {
  return jobMessages(job).some((m) => m.content.template !== undefined);
}

/** A template the preflight could not check (offline), and where the job has it. */
export interface UncheckedTemplate {
  template: NonNullable<MessageContent['template']>;
  path: string;
}

/**
 * The checks of one message on the job's channel, each problem and warning naming where the job
 * has it. `templates` undefined: not fetched; `online` says whether that is because the job is
 * planned offline (the template comes back as `unchecked`) or because the caller did not fetch them
 * (a problem: it must, see `needsTemplates`).
 */
export function checkMessage(
  placed: PlacedMessage,
  channel: ChannelInfo,
  templates: readonly TemplateInfo[] | undefined,
  online: boolean,
): { problems: string[]; warnings: string[]; unchecked?: UncheckedTemplate } {
  const { path, content } = placed;
  const { template, text } = content;
  const problems: string[] = [];
  const warnings: string[] = [];
  if (text !== undefined) {
    const fixedPart = text.replace(/\{\{[^{}]*\}\}/g, '');
    if (fixedPart.length > MAX_TEXT_LENGTH) {
      problems.push(
        `${path}.text: is ${fixedPart.length} characters before its placeholders are filled; the platform takes at most ${MAX_TEXT_LENGTH.toLocaleString('en-US')}: shorten it`,
      );
    }
  }

  if (channel.type === 'ww') {
    if (text === undefined) {
      problems.push(
        `${path}.text: is missing, and channel ${channel.id} is a ww channel, which sends text only (no templates); add "text": "…"`,
      );
    } else if (template) {
      warnings.push(`${path}.template is not used: channel ${channel.id} is a ww channel, which sends text only`);
    }
    return { problems, warnings };
  }

  if (!template) {
    warnings.push(
      `${path}.text only reaches contacts inside the 24-hour window on ${channel.type} channels; with no ${path}.template, the others are skipped`,
    );
  } else if (templates) {
    problems.push(...checkTemplate(template, templates, `${path}.template`));
  } else if (online) {
    problems.push(`${path}.template: cannot be checked, as the account's templates were not fetched; this is a bug, please report it`);
  } else {
    return { problems, warnings, unchecked: { template, path } };
  }
  return { problems, warnings };
}

/** Offline: one warning per distinct template, naming the variants that use it. */
export function uncheckedWarnings(unchecked: readonly UncheckedTemplate[]): string[] {
  const groups = new Map<string, UncheckedTemplate[]>();
  for (const u of unchecked) {
    const key = `${u.template.name} ${u.template.language} ${Object.keys(u.template.variables).join(',')}`;
    groups.set(key, [...(groups.get(key) ?? []), u]);
  }
  return [...groups.values()].flatMap((group) => {
    const first = group[0];
    if (first === undefined) return [];
    const { template } = first;
    const variants = group.map((u) => u.path).filter((path) => path !== 'message');
    const of = variants.length === group.length ? `, of ${listed(variants)},` : '';
    const placeholders = Object.keys(template.variables).map((n) => `{{${n}}}`).join(', ') || '(none)';
    return [`templates not checked (offline): make sure ${template.name} (${template.language})${of} is APPROVED and has exactly the placeholders ${placeholders}`];
  });
}

/** wba/whatsapp: one warning for every message with media, which goes only inside the 24-hour window. */
export function mediaWarning(messages: readonly PlacedMessage[]): string | undefined {
  const paths = messages.filter((m) => m.content.media !== undefined).map((m) => `${m.path}.media`);
  if (paths.length === 0) return undefined;
  return `${listed(paths)} ${paths.length === 1 ? 'goes' : 'go'} only to contacts inside the 24-hour window, as a follow-up message after the first one; contacts who get the template get no media`;
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
