/**
 * The store contract (lib/store/store.ts), one suite run against every implementation: what the
 * app and the emulator rely on, above all that of callers racing on one key exactly one wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLimitReached, type Store } from '@/lib/store/store';

export interface StoreUnderTest {
  /** a store, and a second client of the same backing state (another instance) */
  open(): Promise<{ store: Store; other: Store }>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let counter = 0;
/** A key no other test uses (the stores outlive a test). */
const freshKey = (name: string) => `${name}:${process.pid}:${(counter += 1)}`;

export function storeContract(name: string, subject: StoreUnderTest): void {
  describe(`${name}: the store contract`, () => {
    let store: Store;
    let other: Store;

    beforeAll(async () => {
      ({ store, other } = await subject.open());
    });
    afterAll(() => subject.close());

    it('reads back a JSON value as stored, as a copy', async () => {
      const key = freshKey('roundtrip');
      const value = { name: 'Ingrid Solberg Haugen', nested: { list: [1, 'two', null, true] }, unicode: 'ØÆÅ ✓' };
      await store.set(key, value, 60);
      const read = await other.get<typeof value>(key);
      expect(read).toEqual(value);
      expect(read).not.toBe(value);
    });

    it('answers undefined for a key never stored, and replaces on set', async () => {
      const key = freshKey('replace');
      expect(await store.get(key)).toBeUndefined();
      await store.set(key, 'first', 60);
      await other.set(key, 'second', 60);
      expect(await store.get(key)).toBe('second');
    });

    it('forgets an entry when its time-to-live has passed', async () => {
      const key = freshKey('ttl');
      await store.set(key, 'short-lived', 0.3);
      expect(await other.get(key)).toBe('short-lived');
      await sleep(450);
      expect(await store.get(key)).toBeUndefined();
      expect(await other.take(key)).toBeUndefined();
    });

    it('take returns the value once and deletes it', async () => {
      const key = freshKey('take');
      await store.set(key, { code: 'abc' }, 60);
      expect(await other.take(key)).toEqual({ code: 'abc' });
      expect(await store.take(key)).toBeUndefined();
      expect(await store.get(key)).toBeUndefined();
    });

    it('of twenty takes racing on one key from two clients, exactly one gets the value', async () => {
      const key = freshKey('race-take');
      await store.set(key, 'one-time', 60);
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? store : other).take<string>(key)));
      expect(results.filter((result) => result !== undefined)).toEqual(['one-time']);
    });

    it('of twenty setIfAbsent racing on one key from two clients, exactly one stores', async () => {
      const key = freshKey('race-set');
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? store : other).setIfAbsent(key, index, 60)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.get(key)).toBe(results.indexOf(true));
    });

    it('setIfAbsent stores again once the entry expired or was deleted', async () => {
      const key = freshKey('absent-again');
      expect(await store.setIfAbsent(key, 'a', 0.2)).toBe(true);
      expect(await other.setIfAbsent(key, 'b', 60)).toBe(false);
      await sleep(350);
      expect(await other.setIfAbsent(key, 'c', 60)).toBe(true);
      await store.delete(key);
      expect(await store.setIfAbsent(key, 'd', 60)).toBe(true);
      expect(await other.get(key)).toBe('d');
    });

    it('replace changes a stored entry, but never brings back one expired, taken or deleted', async () => {
      const key = freshKey('replace-present');
      expect(await store.replace(key, 'never stored', 60)).toBe(false);
      expect(await other.get(key)).toBeUndefined();
      await store.set(key, { step: 1 }, 60);
      expect(await other.replace(key, { step: 2 }, 60)).toBe(true);
      expect(await store.get(key)).toEqual({ step: 2 });
      expect(await store.take(key)).toEqual({ step: 2 });
      expect(await other.replace(key, { step: 3 }, 60)).toBe(false);
      expect(await store.get(key)).toBeUndefined();
      const expiring = freshKey('replace-expired');
      await store.set(expiring, 'short-lived', 0.2);
      await sleep(350);
      expect(await other.replace(expiring, 'back', 60)).toBe(false);
      expect(await store.get(expiring)).toBeUndefined();
    });

    it('of replaces racing with a take on one key, none brings the entry back', async () => {
      const key = freshKey('race-replace');
      await store.set(key, 0, 60);
      const replaces = Array.from({ length: 10 }, (_, index) => (index % 2 ? store : other).replace(key, index + 1, 60));
      const taken = other.take<number>(key);
      await Promise.all([...replaces, taken]);
      // In any order, a replace after the take finds nothing: the entry stays gone.
      expect(await store.get(key)).toBeUndefined();
      expect(await taken).toBeTypeOf('number');
    });

    it('renew starts the TTL of the same value again, stores it when none is there, and leaves another value alone', async () => {
      const key = freshKey('renew');
      const value = { kid: 'one', list: [1, 'two'] };
      expect(await store.renew(key, value, 0.3)).toBe('stored');
      expect(await other.get(key)).toEqual(value);
      // The same value from the other client, as read back (a copy): its TTL starts again.
      await sleep(200);
      expect(await other.renew(key, await other.get(key), 60)).toBe('renewed');
      await sleep(250);
      expect(await store.get(key)).toEqual(value);
      expect(await store.renew(key, { kid: 'two', list: [1, 'two'] }, 60)).toBe('different');
      expect(await other.get(key)).toEqual(value);
      const expiring = freshKey('renew-expired');
      await store.set(expiring, 'short-lived', 0.2);
      expect(await other.renew(expiring, 'another', 60)).toBe('different');
      await sleep(350);
      expect(await other.renew(expiring, 'another', 60)).toBe('stored');
      expect(await store.get(expiring)).toBe('another');
    });

    it('of renewals of two values racing on an absent key, exactly one stores, and every other renews that value or leaves it', async () => {
      const key = freshKey('race-renew');
      const values = ['a', 'b'] as const;
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 ? store : other).renew(key, values[index % 2], 60)));
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
      const winner = await store.get<string>(key);
      outcomes.forEach((outcome, index) => {
        if (outcome !== 'stored') expect(outcome).toBe(values[index % 2] === winner ? 'renewed' : 'different');
      });
      expect(values[outcomes.indexOf('stored') % 2]).toBe(winner);
    });

    it('counts a rate limit per key across both clients, and says when to retry', async () => {
      const name = freshKey('limit');
      const limiter = store.limiter(name, 3, 60);
      const sameLimitElsewhere = other.limiter(name, 3, 60);
      const outcomes: string[] = [];
      for (const [client, key] of [
        [limiter, 'a'],
        [sameLimitElsewhere, 'a'],
        [limiter, 'a'],
        [sameLimitElsewhere, 'a'],
        [limiter, 'b'],
      ] as const) {
        outcomes.push(
          await client.consume(key).then(
            () => 'ok',
            (error: unknown) => (isLimitReached(error) ? `limited ${error.retryAfterSeconds}` : String(error)),
          ),
        );
      }
      expect(outcomes.slice(0, 3)).toEqual(['ok', 'ok', 'ok']);
      expect(outcomes[3]).toMatch(/^limited (\d+)$/);
      const retryAfter = Number(outcomes[3]!.split(' ')[1]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another key has its own count.
      expect(outcomes[4]).toBe('ok');
    });

    it('lets a key act again once its window has passed', async () => {
      const limiter = store.limiter(freshKey('window'), 1, 1);
      await limiter.consume('k');
      await expect(limiter.consume('k')).rejects.toSatisfy(isLimitReached);
      await sleep(1100);
      await expect(limiter.consume('k')).resolves.toBeUndefined();
    });

    it('refuses a limit that is not a positive whole number', () => {
      expect(() => store.limiter(freshKey('bad-limit'), 0, 60)).toThrow(RangeError);
      expect(() => store.limiter(freshKey('bad-limit'), 5, 0.5)).toThrow(RangeError);
    });

    it('delete removes an entry, and deleting a missing key is harmless', async () => {
      const key = freshKey('delete');
      await store.set(key, 1, 60);
      await other.delete(key);
      expect(await store.get(key)).toBeUndefined();
      await expect(store.delete(freshKey('never'))).resolves.toBeUndefined();
    });

    it('refuses a value JSON cannot hold and a time-to-live that is not positive', async () => {
      await expect(store.set(freshKey('bad'), undefined, 60)).rejects.toThrow(TypeError);
      await expect(store.set(freshKey('bad'), 1, 0)).rejects.toThrow(RangeError);
      await expect(store.setIfAbsent(freshKey('bad'), 1, Number.NaN)).rejects.toThrow(RangeError);
    });

    it('deleteOwned deletes every key an owner owns, from any client, and nothing of another owner', async () => {
      const owner = freshKey('owner');
      const stranger = freshKey('owner');
      const [flow, result, failure, theirs] = [freshKey('flow'), freshKey('result'), freshKey('failure'), freshKey('result')];
      await store.setOwned(owner, flow, { personalNumber: '01017012345' }, 60);
      await other.setOwned(owner, result, { name: 'Ingrid Solberg Haugen' }, 120);
      await store.setOwned(owner, failure, { code: 'access_denied' }, 30);
      await store.setOwned(stranger, theirs, { name: 'Lars Olof Eriksson' }, 60);
      // A key taken meanwhile is simply no longer there to delete.
      expect(await store.take(flow)).toEqual({ personalNumber: '01017012345' });
      expect(await other.deleteOwned(owner)).toBe(2);
      for (const key of [flow, result, failure]) expect(await store.get(key)).toBeUndefined();
      expect(await store.get(theirs)).toEqual({ name: 'Lars Olof Eriksson' });
      expect(await store.deleteOwned(owner)).toBe(0);
      expect(await store.deleteOwned(freshKey('nobody'))).toBe(0);
    });

    it('setOwned replaces a value like set, and keeps the owner’s record as long as its longest-lived key', async () => {
      const owner = freshKey('owner');
      const [short, long] = [freshKey('short'), freshKey('long')];
      await store.setOwned(owner, long, 'long', 2);
      await store.setOwned(owner, short, 'short', 0.2);
      await store.setOwned(owner, short, 'short again', 0.2);
      expect(await other.get(short)).toBe('short again');
      await sleep(400);
      expect(await store.get(short)).toBeUndefined();
      expect(await store.deleteOwned(owner)).toBe(1);
      expect(await store.get(long)).toBeUndefined();
    });

    it('of a setOwned and a deleteOwned racing, the key is either deleted or still owned: never left behind unowned', async () => {
      for (let round = 0; round < 10; round++) {
        const owner = freshKey('owner');
        const key = freshKey('racing');
        const [, deleted] = await Promise.all([store.setOwned(owner, key, round, 60), other.deleteOwned(owner)]);
        if (deleted === 0 && (await store.get(key)) !== undefined) expect(await store.deleteOwned(owner)).toBe(1);
        expect(await store.get(key)).toBeUndefined();
      }
    });

    it('answers ping and describes itself without secrets', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      expect(store.description).not.toMatch(/password|secret/i);
    });
  });
}
