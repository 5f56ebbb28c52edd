/**
 * For the shutdown tests: a "service" that holds every request until the test lets it go (then
 * answers 503), so that requests to the app stay in flight; and how many clients a redis-server
 * has, so that a test sees the app let go of its connections.
 */
import { createServer } from 'node:http';
import { createClient } from '@redis/client';
import { freePort } from './app-server';

export interface HeldService {
  /** its base URL, for IDV_BASE_URL */
  url: string;
  /** how many requests it holds or has held */
  seen(): number;
  /** answers every request held, and those still to come, with 503 */
  release(): void;
  close(): void;
}

export async function startHeldService(): Promise<HeldService> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let seen = 0;
  const service = createServer((_request, response) => {
    seen += 1;
    void released.then(() => response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"temporarily_unavailable"}'));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, seen: () => seen, release: () => release(), close: () => service.close() };
}

/** The clients connected to the redis-server at `url`, not counting the one that asks. */
export async function redisClientCount(url: string): Promise<number> {
  const admin = createClient({ url });
  await admin.connect();
  const list = await admin.clientList();
  await admin.close();
  return list.length - 1;
}
