import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { JobError } from './errors.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { parseJob } from './parse.js';
import type { Job } from './schema.js';

/** A validated job and where it came from. */
export interface LoadedJob {
  /** Every default filled; `contacts` are absolute paths or globs, resolved against `baseDir`. */
  job: Job;
  /** Absolute path of the job file. */
  jobFile: string;
  /** Its folder: relative paths in the job are relative to it. */
  baseDir: string;
  /**
   * The `columns` fields the file writes out, even as their defaults: the contact loader refuses a
   * file without any of them (pass it as the loader's `namedColumns`). The schema fills the others.
   */
  namedColumns: Array<keyof Job['columns']>;
}

/** Reads, parses and validates a job file; throws a JobError listing every problem. */
export async function loadJob(file: string): Promise<LoadedJob> {
  const jobFile = path.resolve(file);
  const text = await readJobFile(file, jobFile);
  const raw = parseJson(file, text);
  const result = parseJob(raw);
  if (!result.ok) throw new JobError(file, result.problems);
  const baseDir = path.dirname(jobFile);
  return {
    job: { ...result.job, contacts: (result.job.contacts ?? []).map((p) => path.resolve(baseDir, p)) },
    jobFile,
    baseDir,
    namedColumns: namedColumns(raw, result.job),
  };
}

/** The fields of the job's `columns` that the file itself gives (own keys of its `columns` object). */
function namedColumns(raw: unknown, job: Job): Array<keyof Job['columns']> {
  const written = isObject(raw) && Object.hasOwn(raw, 'columns') ? raw.columns : undefined;
  if (!isObject(written)) return [];
  return (Object.keys(job.columns) as Array<keyof Job['columns']>).filter((field) => Object.hasOwn(written, field));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

async function readJobFile(file: string, absolute: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `no such file (looked for ${absolute}); check the path, e.g. jobs/black-friday.json`
        : code === 'EISDIR'
          ? 'is a folder; name the job\'s .json file inside it'
          : code === 'EACCES' || code === 'EPERM'
            ? 'cannot be read (permission denied); make the file readable'
            : `cannot be read (${code ?? String(err)}); check the file`;
    throw new JobError(file, [why]);
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new JobError(file, ['the file is empty; a job is a JSON object, see jobs/black-friday.json']);
  return text;
}

/**
 * The file's JSON value. json-syntax.ts looks first: it names the line and column of a syntax error
 * (JSON.parse names neither) and refuses nesting deeper than any job before anything walks it.
 */
function parseJson(file: string, text: string): unknown {
  const where = findJsonSyntaxError(text);
  if (where) throw new JobError(file, [`line ${where.line}, column ${where.column}: ${where.what}`]);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new JobError(file, [`is not valid JSON (${(err as Error).message}); fix the syntax`]);
  }
}
