import 'server-only';
/**
 * Process-wide instances built from the configuration: the relying party (with its discovery and
 * JWKS caches), the embedded emulator (emulator mode only), and the stores. Kept on `globalThis`
 * so that dev reloads keep them.
 */
import { createEmulator, type Emulator } from '@/lib/emulator';
import { clientPublicJwks, DiscoveryCache, JwksCache, type RelyingParty } from '@/lib/oidc';
import { serverConfig, type ServerConfig } from './env';
import { MemoryResultStore, type ResultStore } from './result-store';
import type { FailureRecord, PendingFlow, VerificationResult } from './state';

interface Services {
  config: ServerConfig;
  relyingParty: RelyingParty;
  emulator: Emulator | null;
  results: ResultStore<VerificationResult>;
  failures: ResultStore<FailureRecord>;
  /** what each pending flow asked for and its trace so far, by state, until its callback */
  flows: ResultStore<PendingFlow>;
}

const globalForServices = globalThis as typeof globalThis & { __idvServices?: Promise<Services> };

async function build(): Promise<Services> {
  const config = await serverConfig();
  const http = { allowInsecureRequests: config.allowInsecureRequests };
  const relyingParty: RelyingParty = {
    issuer: config.issuer,
    client: config.client,
    discovery: new DiscoveryCache(http),
    jwks: new JwksCache(http),
    http,
  };
  const emulator =
    config.mode === 'emulator'
      ? createEmulator({
          baseUrl: config.issuer,
          deviceBaseUrl: config.emulatorDeviceUrl,
          clients: [
            {
              clientId: config.client.clientId,
              name: 'This demo app',
              jwks: clientPublicJwks(config.client),
              redirectUris: [config.redirectUri],
              populationRegister: true,
            },
            ...config.extraEmulatorClients,
          ],
        })
      : null;
  if (config.generated.length > 0) {
    console.warn(`[idv] using generated development values from ${config.dataDir} for: ${config.generated.join(', ')}`);
  }
  console.info(`[idv] ${config.mode} mode; issuer ${config.issuer}; client ${config.client.clientId}`);
  if (emulator) console.info('[idv] the embedded emulator keeps its state in memory; it resets on restart');
  return {
    config,
    relyingParty,
    emulator,
    results: new MemoryResultStore<VerificationResult>(),
    failures: new MemoryResultStore<FailureRecord>(),
    flows: new MemoryResultStore<PendingFlow>(),
  };
}

export function services(): Promise<Services> {
  globalForServices.__idvServices ??= build().catch((error: unknown) => {
    globalForServices.__idvServices = undefined;
    throw error;
  });
  return globalForServices.__idvServices;
}
