import type { ContactState, StateStore } from '../../checkpoint/index.js';

/** `track` notes in the store when it last read a job: a follow-up says it, and an experiment knows whether its rates are fresh. */
export async function noteTracked(store: StateStore, job: string, now: number): Promise<void> {
  await store.saveJobNote(job, 'tracked', { at: new Date(now).toISOString() });
}

/** When `track` last read the job (ISO, when the store kept it), and whether it ever did (a delivery known counts). */
export async function lastTracked(store: StateStore, job: string, states: Iterable<ContactState>): Promise<{ at?: string; ever: boolean }> {
  const note = await store.jobNote(job, 'tracked');
  const at = note !== null && typeof note === 'object' && 'at' in note && typeof note.at === 'string' ? note.at : undefined;
  if (at !== undefined) return { at, ever: true };
  for (const s of states) if (s.status === 'sent' && s.delivery !== undefined) return { ever: true };
  return { ever: false };
}
