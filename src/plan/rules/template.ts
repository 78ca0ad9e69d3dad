import type { RenderedTemplate } from '../types.js';
import type { Part } from './fill.js';

/**
 * The template with its variables filled. The provider refuses template parameters with line
 * breaks, tabs or runs of spaces, so a value from a contact list is folded onto one line.
 */
export function renderedTemplate(template: { name: string; language: string }, parts: Part[], values: string[]): RenderedTemplate {
  const variables: Record<string, string> = {};
  parts.forEach((part, i) => {
    const value = values[i];
    if (part.position !== undefined && value !== undefined) variables[part.position] = value.replace(/\s+/g, ' ').trim();
  });
  return { name: template.name, language: template.language, variables };
}
