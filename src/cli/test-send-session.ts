import { testSend, type Prepared, type TestSendResult } from '../app/index.js';
import type { StateStore } from '../checkpoint/index.js';
import type { Connection } from './api-command.js';
import { CliError, ExitCode } from './exit.js';
import { fileLogger, flushLogger } from './logger.js';
import { openApi } from './api-root.js';

/**
 * `run --test-to [phones]`: the phones given (comma-separated), or the job's `test_to` when the flag
 * has none, get the campaign's message with the first rows' values; the campaign itself is not sent.
 * Exit 0 when every phone got it, 1 when one did not.
 */
export async function testSendSession(prepared: Prepared, flag: string | true, options: { store: StateStore; connection: Connection }): Promise<ExitCode> {
  const { job } = prepared;
  const given = flag === true ? [] : flag.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const phones = given.length > 0 ? given : (job.test_to ?? []);
  if (phones.length === 0) {
    throw new CliError(`--test-to lists no phone and the job has no test_to; give your team's phones, e.g. --test-to +5511987654321,+5511912345678, or list them in the job's "test_to"`);
  }
  const logger = fileLogger(options.store.jobFiles(job.name).log, { job: job.name });
  const api = openApi(options.connection, job);
  try {
    const result = await testSend(prepared, { api, store: options.store, phones, source: given.length > 0 ? '--test-to' : 'test_to', logger });
    process.stdout.write(formatTestSend(result));
    return result.sends.every((s) => s.outcome.kind === 'sent') ? ExitCode.ok : ExitCode.failed;
  } finally {
    await api.close().catch(() => undefined);
    await flushLogger(logger);
  }
}

/** One line per phone, then where it is recorded. */
export function formatTestSend(result: TestSendResult): string {
  const lines = result.sends.map((s) => {
    const what = s.outcome.kind === 'sent' ? `sent (line ${s.row.line} of the list's values): ${s.message}` : `NOT sent: ${s.outcome.error}`;
    return `test send of ${result.job}: ${s.phone} ${what}`;
  });
  lines.push(`the campaign was not sent; recorded in ${result.file} (apart from the campaign: \`outreach run\` sends every contact as usual)`);
  return `${lines.join('\n')}\n`;
}
