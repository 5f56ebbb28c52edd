/**
 * The relying party under test, as the kit meets it: started by the kit when --rp-command says
 * how (stopped with its whole process group at the end), and waited for until its start page
 * answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ClientKeys } from './emulator-server';

/** A relying party the kit started (--rp-command): its output kept for when it fails. */
export interface StartedRelyingParty {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The environment of --rp-command: this one, with the emulator as IDV_BASE_URL and the client_id
 * as IDV_CLIENT_ID (the variables this project's apps and examples read); the private keys when
 * --client-jwks held them (`npm run keys -- --json`), so they match the keys registered; and a
 * SESSION_SECRET of its own when none is set.
 */
export function relyingPartyEnvironment(
  base: Record<string, string | undefined>,
  emulator: string,
  clientId: string,
  keys: ClientKeys | undefined,
): Record<string, string | undefined> {
  return {
    ...base,
    IDV_BASE_URL: emulator,
    IDV_CLIENT_ID: clientId,
    ...(keys?.privateKeys
      ? { IDV_SIGNING_KEY: JSON.stringify(keys.privateKeys.signing), IDV_ENCRYPTION_KEY: JSON.stringify(keys.privateKeys.encryption) }
      : {}),
    SESSION_SECRET: base.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
  };
}

export function startRelyingParty(commandLine: string, env: Record<string, string | undefined>): StartedRelyingParty {
  const child = spawn(commandLine, { shell: true, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], env: env as NodeJS.ProcessEnv });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      // The whole group: a shell's children (npm, node) go with it.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until the start page answers at all (any status), for a relying party still starting. */
export async function waitForStartPage(startUrl: string, relyingParty: StartedRelyingParty | undefined, timeoutMs: number): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const answered = await fetch(startUrl, { redirect: 'manual', signal: AbortSignal.timeout(5000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (relyingParty && relyingParty.process.exitCode !== null) {
      throw new Error(
        `the relying party's command (--rp-command) exited with status ${relyingParty.process.exitCode} before ${startUrl} answered. Its last output:\n${relyingParty.output()}`,
      );
    }
    if (Date.now() > giveUpAt) {
      throw new Error(
        `nothing answers at ${startUrl} after ${Math.round(timeoutMs / 1000)} s: is your relying party running there?${relyingParty ? ` Its last output:\n${relyingParty.output()}` : ''}`,
      );
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}
