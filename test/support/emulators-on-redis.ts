/**
 * Two emulator instances on one real Redis (a redis-server of the test's own), as behind a
 * round-robin balancer: what a scenario across instances starts from.
 */
import type { Emulator } from '@/lib/emulator';
import { RedisStore } from '@/lib/store/redis-store';
import { namespaced } from '@/lib/store/store';
import { createTestEmulator, type TestClient } from './emulator';
import { startRedisServer } from './redis-server';

export interface EmulatorsOnRedis {
  a: Emulator;
  b: Emulator;
  /** closes both stores and stops the redis-server */
  close(): Promise<void>;
}

/** Two emulators with `client` registered, on one redis-server, their keys under the app's prefixes. */
export async function emulatorsOnRedis(client: TestClient): Promise<EmulatorsOnRedis> {
  const server = await startRedisServer();
  const stores: RedisStore[] = [];
  const instance = async () => {
    const store = await RedisStore.connect({ url: server.url, prefix: 'idv:' });
    stores.push(store);
    return createTestEmulator({ clients: [client], store: namespaced(store, 'emulator:') });
  };
  const [a, b] = [await instance(), await instance()];
  return {
    a,
    b,
    close: async () => {
      await Promise.all(stores.map((store) => store.close()));
      await server.close();
    },
  };
}
