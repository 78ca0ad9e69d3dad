import type { Job } from '../job/index.js';
import { CliError, ExitCode } from './exit.js';
import type { PlanPass } from './plan-pass.js';

/** Too many rejects usually means a wrong column mapping or country: stop before sending (exit 2). */
export function checkRejectRatio(job: Job, pass: PlanPass, rejectsFile: string): void {
  if (pass.rows === 0) return;
  const ratio = pass.rejects.length / pass.rows;
  if (ratio <= job.limits.max_reject_ratio) return;
  const top = Object.entries(pass.rejectedByReason)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  throw new CliError(
    `${pass.rejects.length} of ${pass.rows} rows rejected (${pct(ratio)}), more than limits.max_reject_ratio ${job.limits.max_reject_ratio} (${top}); ` +
      `check columns and default_country in the job, see ${rejectsFile}`,
    ExitCode.invalid,
  );
}

export function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}
