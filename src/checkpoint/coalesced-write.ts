/**
 * A write that many callers ask for, done one at a time: a call while none runs starts one; a call
 * while one runs gets the single write that follows it, shared by every caller meanwhile (so what
 * they changed before calling is in it). Pure; both backends' window stores flush through it.
 */
export function coalescedWrite(write: () => Promise<void>): () => Promise<void> {
  let writing: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  const run = (): Promise<void> => {
    if (!writing) {
      writing = write().finally(() => {
        writing = undefined;
      });
      return writing;
    }
    again ??= writing
      .catch(() => undefined)
      .then(() => {
        again = undefined;
        return run();
      });
    return again;
  };
  return run;
}
