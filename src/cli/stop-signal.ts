import { readFileSync } from 'node:fs';

/**
 * SIGTERM to `pid` when it is a live process of ours (node running outreach): a pid the store recorded
 * may since belong to another program, which is never signalled. What `outreach stop` and the console's
 * stop send.
 */
export function terminate(pid: number): boolean {
  if (!isOutreach(pid)) return false;
  try {
    process.kill(pid, 'SIGTERM');
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` runs node (or outreach), where /proc tells; true where it cannot be told. */
function isOutreach(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (err) {
    // No /proc (macOS): the store's liveness check is all there is. A pid gone: nothing to stop.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || !readableProc();
  }
  return /node|outreach/.test(cmdline);
}

function readableProc(): boolean {
  try {
    readFileSync('/proc/self/cmdline');
    return true;
  } catch {
    return false;
  }
}
