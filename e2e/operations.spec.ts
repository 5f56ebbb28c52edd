/**
 * Operations: the health endpoints a balancer or an orchestrator polls.
 */
import { expect, test } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

test('GET /healthz says the process is alive, never cached', async ({ request }) => {
  const response = await request.get(`${APP}/healthz`);
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'alive' });
});

test('GET /readyz says the instance is ready, with its mode and store, and no secrets', async ({ request }) => {
  const response = await request.get(`${APP}/readyz`);
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  const body = await response.text();
  expect(JSON.parse(body)).toEqual({ status: 'ready', checks: { configuration: 'ok', store: 'ok' }, store: 'memory', mode: 'emulator' });
  expect(body).not.toMatch(/http|demo-relying-party|kid|secret/i);
});
