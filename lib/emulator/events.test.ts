import { describe, expect, it } from 'vitest';
import type { JwksFault } from './answer-faults';
import { EmulatorEvents } from './events';

describe('EmulatorEvents', () => {
  it('awaits each listener in the order they were added, so a later one sees what an earlier one chose', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answering', async ({ faults }) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      faults.add('jwks_keys_shuffled');
      heard.push('first');
    });
    events.on('jwks.answering', ({ faults }) => {
      heard.push(`second saw ${[...faults].join(', ')}`);
    });
    const payload = { faults: new Set<JwksFault>() };
    await events.emit('jwks.answering', payload);
    expect(heard).toEqual(['first', 'second saw jwks_keys_shuffled']);
    expect([...payload.faults]).toEqual(['jwks_keys_shuffled']);
  });

  it('calls only the listeners of the event emitted, and none at all when it has none', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answered', ({ kids }) => {
      heard.push(kids.join(','));
    });
    await events.emit('jwks.answering', { faults: new Set<JwksFault>() });
    expect(heard).toEqual([]);
    await events.emit('jwks.answered', { kids: ['a', 'b'], faults: [] });
    expect(heard).toEqual(['a,b']);
  });

  it('fails the emit when a listener throws, and calls none after it', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answered', () => {
      throw new Error('store out');
    });
    events.on('jwks.answered', () => {
      heard.push('after');
    });
    await expect(events.emit('jwks.answered', { kids: [], faults: [] })).rejects.toThrow('store out');
    expect(heard).toEqual([]);
  });
});
