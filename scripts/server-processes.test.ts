import { describe, expect, it } from 'vitest';
import { restartDelayMs } from './server-processes.mjs';

describe('restartDelayMs', () => {
  it('replaces a server process that exited after 1 s, doubling with each exit of the last five minutes, at most 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(restartDelayMs)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});
