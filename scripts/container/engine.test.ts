/**
 * exec(), the container test's way to run a command: a command that exits without reading the
 * input it is given (as `podman` may, for a step that fails early) is a result, not a crash of
 * the whole test run (the fresh-clone CI once ended on an unhandled EPIPE).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exec } from './engine';

const folder = mkdtempSync(join(tmpdir(), 'engine-test-'));
const log = join(folder, 'log');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('exec', () => {
  it('gives the exit code of a command that exits without reading its input, however large the input', async () => {
    // Larger than a pipe holds, so the write is still going when the command has exited.
    const input = 'x'.repeat(4 * 1024 * 1024);
    for (let round = 0; round < 5; round++) {
      await expect(exec([process.execPath, '-e', 'process.exit(3)'], { log, input })).resolves.toMatchObject({ code: 3 });
    }
  });

  it('gives a command its input, and keeps what it printed in the log', async () => {
    const result = await exec([process.execPath, '-e', 'process.stdin.pipe(process.stdout)'], { log, input: 'hello' });
    expect(result).toMatchObject({ code: 0, stdout: 'hello' });
    expect(readFileSync(log, 'utf8')).toContain('hello');
  });
});
