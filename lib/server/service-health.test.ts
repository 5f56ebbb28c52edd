import { describe, expect, it } from 'vitest';
import type { DoctorFindings, DoctorLine } from '@/lib/verification/doctor-findings';
import { healthOf, withinMs } from './service-health';

const pass = (id: string): DoctorLine => ({ id, title: { code: 'par', values: [] }, status: 'pass', detail: { code: 'parRequired', values: [] } });
const warn = (id: string): DoctorLine => ({ ...pass(id), status: 'warn' });
const fail = (id: string): DoctorLine => ({ ...pass(id), status: 'fail' });
const service = { mode: 'provider', issuer: 'https://idv.test' } as const;

function findings(lines: DoctorLine[], change: Partial<DoctorFindings> = {}): DoctorFindings {
  return { lines, publicJwks: { keys: [] }, status: 'pass', service, ...change };
}
const refused = { kind: 'error', endpoint: 'discovery', message: 'connect ECONNREFUSED', cause: 'refused', host: 'idv.test' } as const;

describe('healthOf: the badge’s state from the doctor’s findings', () => {
  it('green when every line passes', () => {
    expect(healthOf(findings([pass('discovery'), pass('jwks')]))).toEqual({ state: 'ok', ...service });
  });

  it('red when discovery or the JWKS cannot be fetched, with the cause', () => {
    expect(healthOf(findings([fail('discovery')], { service: { ...service, problem: refused } }))).toEqual({
      state: 'down',
      ...service,
      reason: { kind: 'unreachable', endpoint: 'discovery', cause: 'refused', stale: false },
    });
    const jwks500 = { kind: 'status', endpoint: 'jwks', status: 500 } as const;
    expect(healthOf(findings([fail('jwks')], { service: { ...service, problem: jwks500 } }))).toMatchObject({
      state: 'down',
      reason: { endpoint: 'jwks', cause: 'status' },
    });
  });

  it('amber when discovery cannot be fetched but the core still serves its last good copy', () => {
    expect(healthOf(findings([fail('discovery')], { service: { ...service, problem: refused } }), true)).toMatchObject({
      state: 'degraded',
      reason: { kind: 'unreachable', cause: 'refused', stale: true },
    });
  });

  it('amber when the service was fetched and the doctor warns or fails a check', () => {
    expect(healthOf(findings([pass('discovery'), warn('signing-key'), warn('redirect-uri'), fail('issuer')]))).toMatchObject({
      state: 'degraded',
      reason: { kind: 'findings', warnings: 2, failures: 1 },
    });
  });

  it('red when the configuration does not load', () => {
    expect(healthOf({ lines: [fail('configuration')], publicJwks: { keys: [] }, status: 'fail' })).toEqual({
      state: 'down',
      reason: { kind: 'configuration' },
    });
  });
});

describe('withinMs: a page never waits longer than the bound', () => {
  it('gives the value that settles in time, and undefined after the bound while the work goes on', async () => {
    expect(await withinMs(Promise.resolve('ready'), 50)).toBe('ready');
    let finished = false;
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve('late'), 400)).then((value) => ((finished = true), value));
    const started = Date.now();
    expect(await withinMs(slow, 50)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(300);
    expect(finished).toBe(false);
    expect(await slow).toBe('late');
  });
});
