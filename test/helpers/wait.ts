/**
 * Polls until `check` holds, every `everyMs`. The time limit bounds a hung test; it is never a measure
 * of speed (a minute, for a child process started on a busy machine): past it the test fails with the
 * condition's name.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 60_000, everyMs = 10): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
