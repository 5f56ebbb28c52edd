/**
 * The processes this test process started and has not seen exit: killed when it exits, by one
 * listener (a worker starts many servers; a listener each would pass Node's limit of ten and
 * print MaxListenersExceededWarning).
 */
import type { ChildProcess } from 'node:child_process';

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** Kills `child` when this process exits, unless it has exited by then. */
export function killOnExit(child: ChildProcess): void {
  started.add(child);
  child.once('exit', () => started.delete(child));
}
