import type { Job } from '../job/index.js';

/**
 * Which arm of an experiment a contact is in: a stable random split. The draw is a hash of the job's
 * name and the phone, so a rerun, a resumed run and `status` all give a contact the same arm, with
 * nothing stored. Contacts whose draw falls below `test_share` are the test, split evenly between
 * the arms by the same draw; the others are the rest, who get the winner once it is decided. Pure.
 */
export type ArmDraw = { test: true; arm: string } | { test: false };

export function armOf(phone: string, jobName: string, experiment: Pick<NonNullable<Job['experiment']>, 'arms' | 'test_share'>): ArmDraw {
  const u = unitDraw(`${jobName}\u0000${phone}`);
  if (u >= experiment.test_share) return { test: false };
  const names = Object.keys(experiment.arms);
  const index = Math.min(names.length - 1, Math.floor((u / experiment.test_share) * names.length));
  return { test: true, arm: names[index] ?? '' };
}

/** A number in [0, 1) from a text: 52 bits of two FNV-1a hashes with different offsets, mixed. */
export function unitDraw(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = mix(a);
  b = mix(b ^ a);
  return ((a >>> 0) * 2 ** 20 + ((b >>> 0) & 0xfffff)) / 2 ** 52;
}

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
