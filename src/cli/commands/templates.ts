import type { Command } from 'commander';
import { templatePlaceholders } from '../../api/index.js';
import { table, withApi } from '../api-command.js';

interface TemplatesFlags {
  all?: boolean;
  baseUrl?: string;
  tokenFile?: string;
  json?: boolean;
}

export function registerTemplates(program: Command): void {
  program
    .command('templates')
    .description('List approved templates with their languages and placeholders')
    .option('--all', 'list templates of every status, not only APPROVED')
    .option('--base-url <url>', 'platform base URL (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the integration token (default $OUTREACH_TOKEN)')
    .option('--json', 'print the templates as JSON, each with its placeholders')
    .action(async (flags: TemplatesFlags) => {
      const query = flags.all ? {} : { status: 'APPROVED' };
      const templates = (await withApi(flags, (api) => api.listTemplates(query)))
        .map((t) => ({ ...t, placeholders: templatePlaceholders(t) }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(templates, null, 2)}\n`);
        return;
      }
      if (templates.length === 0) {
        process.stdout.write(flags.all ? 'no templates\n' : 'no approved templates (--all lists every status)\n');
        return;
      }
      const rows = templates.map((t) => [
        t.name,
        t.language,
        t.category,
        t.status,
        String(t.placeholders.length),
        t.placeholders.map((n) => `{{${n}}}`).join(' '),
      ]);
      process.stdout.write(table(['NAME', 'LANGUAGE', 'CATEGORY', 'STATUS', 'VARS', 'PLACEHOLDERS'], rows));
    });
}
