import type { Contact } from '../contacts/types.js';
import type { Message, MessageContent, VariantWhen } from '../job/index.js';
import { languageMatches } from './language.js';

/** The message one contact gets: a variant's, or the job's own (the default). */
export interface VariantChoice {
  /** Index in `message.variants`, from 0; undefined for the job's own message. */
  variant: number | undefined;
  /** The variant's name, when it has one. */
  name?: string;
  /** Complete: the planner reads it as it reads the job's own message. */
  message: MessageContent;
}

/**
 * The first variant whose `when` the contact matches (every condition given: its number's country
 * among `countries`, its language that `language`), else the job's own message. Pure.
 */
export function chooseVariant(contact: Pick<Contact, 'country' | 'language'>, message: Message): VariantChoice {
  const { variants } = message;
  for (let i = 0; i < variants.length; i++) {
    const variant = variants[i];
    if (variant === undefined || !matches(variant.when, contact)) continue;
    return variant.name === undefined
      ? { variant: i, message: variant.message }
      : { variant: i, name: variant.name, message: variant.message };
  }
  return { variant: undefined, message };
}

function matches(when: VariantWhen, contact: Pick<Contact, 'country' | 'language'>): boolean {
  if (when.countries !== undefined && (contact.country === undefined || !when.countries.includes(contact.country))) return false;
  if (when.language !== undefined && !languageMatches(when.language, contact.language)) return false;
  return true;
}

/** The report's `variant` column: the variant's name, else its index; `default` for the job's own message. */
export function variantLabel(choice: Pick<VariantChoice, 'variant' | 'name'>): string {
  if (choice.variant === undefined) return 'default';
  return choice.name ?? String(choice.variant);
}
