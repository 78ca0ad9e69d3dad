import { stat } from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { JobError } from './errors.js';
import type { LoadedJob } from './load.js';

/**
 * The contact files of a job: each entry of `contacts` in the job's order, a glob giving its matches
 * in name order; absolute paths, each file once. An entry naming an existing file is that file even
 * if its name has glob characters ("list (1).csv"). Throws a JobError naming every path that does
 * not exist and every glob that matches nothing.
 */
export async function resolveContactFiles(loaded: {
  job: Pick<LoadedJob['job'], 'contacts'>;
  baseDir: string;
  jobFile: string;
}): Promise<string[]> {
  const { job, baseDir, jobFile } = loaded;
  const files: string[] = [];
  const problems: string[] = [];
  for (const entry of job.contacts ?? []) {
    const absolute = path.resolve(baseDir, entry);
    // Shown and globbed relative to the job's folder: as written in the job, and glob characters in
    // the folder's own name are not read as a pattern.
    const written = (path.relative(baseDir, absolute) || '.').split(path.sep).join('/');
    const kind = await stat(absolute).then(
      (s) => (s.isDirectory() ? 'folder' : 'file'),
      () => 'missing',
    );
    if (kind === 'file') {
      files.push(absolute);
    } else if (kind === 'folder') {
      problems.push(`contacts: "${written}" is a folder; name a file, or a glob such as "${written}/*.csv"`);
    } else if (isDynamicPattern(written)) {
      const found = await glob(written, { cwd: baseDir, absolute: true, onlyFiles: true, expandDirectories: false });
      if (found.length === 0) problems.push(`contacts: the glob "${written}" matches no file (in ${baseDir}); check the pattern`);
      files.push(...found.map((f) => path.resolve(f)).sort(byName));
    } else {
      problems.push(`contacts: "${written}" does not exist (looked for ${absolute}); paths are relative to the job file's folder`);
    }
  }
  if (problems.length > 0) throw new JobError(path.relative(process.cwd(), jobFile) || jobFile, problems);
  return [...new Set(files)];
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
