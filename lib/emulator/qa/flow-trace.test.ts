import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../store/memory-store';
import { StoreError, type Store } from '../../store/store';
import { FlowTraces, MAX_FLOW_EVENTS, MAX_TRACE_STRING, masked } from './flow-trace';

const event = { step: 'par', outcome: 'ok', details: {} } as const;

describe('FlowTraces', () => {
  it('appends events to one flow’s trace, cut to 40 events and 300-character strings', async () => {
    const traces = new FlowTraces(new MemoryStore(), () => 1000);
    await traces.record('s', 'client', { ...event, details: { long: 'x'.repeat(400), list: ['y'.repeat(400)], count: 3, flag: true } });
    for (let index = 0; index < MAX_FLOW_EVENTS + 5; index += 1) await traces.record('s', 'client', { ...event, step: 'flow_answer', details: { index } });
    const trace = (await traces.read('s'))!;
    expect(trace).toMatchObject({ state: 's', clientId: 'client', startedAt: 1000 });
    expect(trace.events).toHaveLength(MAX_FLOW_EVENTS);
    expect(trace.events.at(-1)!.details.index).toBe(MAX_FLOW_EVENTS + 4);

    await traces.record('t', 'client', { ...event, details: { long: 'x'.repeat(400), list: ['y'.repeat(400)], count: 3, flag: true } });
    const [first] = (await traces.read('t'))!.events;
    expect(first!.details).toEqual({ long: `${'x'.repeat(MAX_TRACE_STRING - 1)}…`, list: [`${'y'.repeat(MAX_TRACE_STRING - 1)}…`], count: 3, flag: true });
  });

  it('stores facts and no words: an event is its time, step, outcome and details', async () => {
    const traces = new FlowTraces(new MemoryStore(), () => 1000);
    await traces.record('s', 'client', { ...event, summary: 'a sentence someone passed anyway' } as typeof event);
    expect((await traces.read('s'))!.events).toEqual([{ at: 1000, step: 'par', outcome: 'ok', details: {} }]);
  });

  it('keeps a trace to the client that made it', async () => {
    const traces = new FlowTraces(new MemoryStore(), Date.now);
    await traces.record('s', 'a', event);
    await traces.record('s', 'b', { ...event, step: 'token' });
    await traces.chooseGivenName('s', 'b', 'Mallory');
    expect((await traces.read('s'))!.events.map((recorded) => recorded.step)).toEqual(['par']);
    expect(await traces.givenName('s', 'a')).toBeUndefined();
    await traces.chooseGivenName('s', 'a', 'Ann');
    expect(await traces.givenName('s', 'a')).toBe('Ann');
    expect(await traces.givenName('s', 'b')).toBeUndefined();
  });

  it('lists every flow of a client listed at once, newest first', async () => {
    let clock = Date.now();
    const traces = new FlowTraces(new MemoryStore({ now: () => clock }), () => clock);
    await Promise.all(Array.from({ length: 20 }, (_, index) => traces.list(`s${index}`, 'a')));
    clock += 1;
    await traces.list('later', 'a');
    const flows = await traces.flowsOf('a', 0);
    expect(flows).toHaveLength(21);
    expect(flows[0]!.state).toBe('later');
    expect(new Set(flows.map((flow) => flow.state)).size).toBe(21);
    expect(await traces.flowsOf('b', 0)).toEqual([]);
    expect(await traces.flowsOf('a', clock)).toEqual([{ state: 'later', clientId: 'a', startedAt: clock }]);
  });

  it('a store that cannot take a write loses the event, not the flow: recording never throws for the store', async () => {
    const failing = new Proxy(new MemoryStore(), {
      get(target, name) {
        if (name === 'set' || name === 'setIfAbsent') return () => Promise.reject(new StoreError('store_unavailable', 'down', 5));
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    }) as Store;
    const traces = new FlowTraces(failing, Date.now);
    await expect(traces.record('s', 'a', event)).resolves.toBeUndefined();
    await expect(traces.list('s', 'a')).resolves.toBeUndefined();
    await expect(traces.rememberRequestUri('urn:x', 's', 'a')).resolves.toBeUndefined();
    await expect(traces.recordJwksFetch(['kid'], [])).resolves.toBeUndefined();
  });

  it('masks a value to its first characters and an ellipsis', () => {
    expect(masked('abcdefgh', 4)).toBe('abcd…');
    expect(masked('abc', 4)).toBe('abc');
  });
});
