import { describe, expect, it } from 'vitest';
import { MAX_PROCESSES, parseCompress, parseProcesses, StartOptionError, startOptions } from './start-options.mjs';

const REDIS = { REDIS_URL: 'redis://127.0.0.1:6379' };

/** The error a start with `env` is refused with. */
function refusal(env: Record<string, string | undefined>): StartOptionError {
  try {
    startOptions(env);
  } catch (error) {
    if (error instanceof StartOptionError) return error;
    throw error;
  }
  throw new Error('the start was not refused');
}

describe('WEB_CONCURRENCY', () => {
  it('is one process when unset or empty', () => {
    expect(parseProcesses({})).toBe(1);
    expect(parseProcesses({ WEB_CONCURRENCY: '' })).toBe(1);
    expect(parseProcesses({ WEB_CONCURRENCY: '  ' })).toBe(1);
  });

  it('is the number of processes it says, from 1 to 64, with REDIS_URL when more than one', () => {
    expect(parseProcesses({ WEB_CONCURRENCY: '1' })).toBe(1);
    expect(parseProcesses({ WEB_CONCURRENCY: ' 2 ', ...REDIS })).toBe(2);
    expect(parseProcesses({ WEB_CONCURRENCY: String(MAX_PROCESSES), ...REDIS })).toBe(64);
  });

  it('refuses anything but a whole number from 1 to 64, naming the variable and the value', () => {
    for (const bad of ['0', '65', '100', '1000', '-1', '+2', '1.5', '2e1', '0x2', 'two', 'auto', '2 3']) {
      const error = refusal({ WEB_CONCURRENCY: bad, ...REDIS });
      expect(error.variable).toBe('WEB_CONCURRENCY');
      expect(error.message).toBe(`WEB_CONCURRENCY must be a whole number of server processes from 1 to 64 (it is "${bad}")`);
    }
  });

  it('refuses more than one process without REDIS_URL, naming both variables', () => {
    for (const env of [{ WEB_CONCURRENCY: '2' }, { WEB_CONCURRENCY: '4', REDIS_URL: ' ' }]) {
      const error = refusal(env);
      expect(error.variable).toBe('WEB_CONCURRENCY');
      expect(error.message).toMatch(/^WEB_CONCURRENCY is [24], and several server processes share their state only through Redis: set REDIS_URL /);
      expect(error.message).toContain('or set WEB_CONCURRENCY=1');
    }
    // One process needs no Redis.
    expect(parseProcesses({ WEB_CONCURRENCY: '1' })).toBe(1);
  });
});

describe('IDV_COMPRESS', () => {
  it('compresses unless it is 0', () => {
    expect(parseCompress({})).toBe(true);
    expect(parseCompress({ IDV_COMPRESS: '' })).toBe(true);
    expect(parseCompress({ IDV_COMPRESS: '1' })).toBe(true);
    expect(parseCompress({ IDV_COMPRESS: ' 0 ' })).toBe(false);
  });

  it('refuses anything but 1 or 0, naming the variable and the value', () => {
    for (const bad of ['true', 'false', 'off', 'on', 'no', '2', '01']) {
      const error = refusal({ IDV_COMPRESS: bad });
      expect(error.variable).toBe('IDV_COMPRESS');
      expect(error.message).toBe(
        `IDV_COMPRESS must be 1 (Next.js compresses its responses, the default) or 0 (a proxy in front compresses them) (it is "${bad}")`,
      );
    }
  });
});

describe('startOptions', () => {
  it('reads both', () => {
    expect(startOptions({})).toEqual({ processes: 1, compress: true });
    expect(startOptions({ WEB_CONCURRENCY: '2', IDV_COMPRESS: '0', ...REDIS })).toEqual({ processes: 2, compress: false });
  });
});
