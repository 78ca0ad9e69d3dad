import path from 'node:path';

/**
 * The demo's last words: what to type against the real platform. From a checkout of outreach (the
 * working folder is the package's own), `npx outreach` and the example job where it is; from an
 * installed program, `outreach` and a copy of the example job the package ships, by its full path.
 */
export function demoNextSteps(packageDir: string, cwd: string): string[] {
  const example = path.join(packageDir, 'jobs', 'black-friday.json');
  const checkout = path.resolve(cwd) === path.resolve(packageDir);
  const outreach = checkout ? 'npx outreach' : 'outreach';
  const job = checkout ? path.join('jobs', 'black-friday.json') : 'black-friday.json';
  return [
    'export OUTREACH_BASE_URL=https://your-platform.example OUTREACH_TOKEN=…   # from Settings → Integrations',
    `${outreach} channels --company-id 1 && ${outreach} templates            # find channel_id and a template`,
    ...(checkout ? [] : [`cp ${quoted(example)} ${job}   # the example job; set its channel_id, template and contacts`]),
    `${outreach} plan ${job} && ${outreach} run ${job}`,
  ];
}

/** A path as a shell word: quoted when it holds anything but the plainest characters. */
function quoted(file: string): string {
  return /^[\w./-]+$/.test(file) ? file : `'${file.replaceAll("'", "'\\''")}'`;
}
