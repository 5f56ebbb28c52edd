import 'server-only';
/**
 * The git-ignored data folder: development keys and the session secret, generated once so that
 * the app runs with no configuration and keeps its sessions and registration across restarts.
 * One machine's: with REDIS_URL the development keys live in the shared store instead, the same
 * for every instance (shared-dev-keys.ts).
 * A file is written aside and then linked into place, which fails if it exists, so two processes
 * starting together agree on one complete value.
 */
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateClientKeys, randomToken, type GeneratedClientKeys } from '@/lib/oidc';

async function readOrCreate(path: string, create: () => Promise<string>): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const content = await create();
  const aside = `${path}.${process.pid}.${randomToken(6)}.tmp`;
  await writeFile(aside, content, { mode: 0o600 });
  try {
    await link(aside, path);
    console.warn(`[idv] generated ${path} (development only; configure the environment for real use)`);
    return content;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFile(path, 'utf8');
    throw error;
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

export async function loadOrCreateDevKeys(dataDir: string): Promise<GeneratedClientKeys> {
  const text = await readOrCreate(join(dataDir, 'dev-client-keys.json'), async () => JSON.stringify(await generateClientKeys('ES256'), null, 2));
  try {
    const keys = JSON.parse(text) as GeneratedClientKeys;
    if (typeof keys.signingKey?.d === 'string' && typeof keys.encryptionKey?.d === 'string') return keys;
  } catch {
    // reported below
  }
  throw new Error(`${join(dataDir, 'dev-client-keys.json')} is corrupt: delete it and a new one is generated`);
}

export async function loadOrCreateSessionSecret(dataDir: string): Promise<string> {
  const text = await readOrCreate(join(dataDir, 'session-secret'), async () => randomToken(48));
  return text.trim();
}
