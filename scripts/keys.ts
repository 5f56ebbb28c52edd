/**
 * `npm run keys`: a fresh client key pair for registering with the service (spec part 1,
 * "Prerequisites for a client"): the private JWKs to put in the environment and the public JWKS
 * to register. Nothing is written to disk.
 *
 *   npm run keys                   ES256 signing key + RSA-OAEP-256 encryption key
 *   npm run keys -- --alg PS256    or PS256 / EdDSA for the signing key
 *   npm run keys -- --json         one JSON object instead of an env snippet
 */
import { clientPublicJwks, generateClientKeys } from '../lib/oidc/client-keys';
import { CLIENT_SIGNING_ALGORITHMS, type ClientSigningAlgorithm } from '../lib/oidc/types';

export interface KeysOptions {
  alg: ClientSigningAlgorithm;
  json: boolean;
}

export function parseKeysArguments(args: string[]): KeysOptions {
  const options: KeysOptions = { alg: 'ES256', json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') options.json = true;
    else if (arg === '--alg' || arg.startsWith('--alg=')) {
      const value = arg === '--alg' ? args[++i] : arg.slice('--alg='.length);
      if (!value || !(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(value)) {
        throw new Error(`--alg must be one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`);
      }
      options.alg = value as ClientSigningAlgorithm;
    } else throw new Error(`unknown argument "${arg}" (use --alg ES256|PS256|EdDSA and --json)`);
  }
  return options;
}

/** Shell-safe single quoting for an env line. */
function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export async function renderKeys(options: KeysOptions): Promise<string> {
  const keys = await generateClientKeys(options.alg);
  const jwks = clientPublicJwks(keys);
  if (options.json) {
    return JSON.stringify({ IDV_SIGNING_KEY: keys.signingKey, IDV_ENCRYPTION_KEY: keys.encryptionKey, public_jwks: jwks }, null, 2);
  }
  return [
    '# Private keys: put these in the environment (e.g. .env.local) and keep them secret.',
    `IDV_SIGNING_KEY=${quote(JSON.stringify(keys.signingKey))}`,
    `IDV_ENCRYPTION_KEY=${quote(JSON.stringify(keys.encryptionKey))}`,
    '',
    '# Public JWKS: register this with the service, together with your redirect URI (APP_URL/auth/callback).',
    JSON.stringify(jwks, null, 2),
  ].join('\n');
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''));
if (invokedDirectly) {
  try {
    console.log(await renderKeys(parseKeysArguments(process.argv.slice(2))));
  } catch (error) {
    console.error(`keys: ${(error as Error).message}`);
    process.exit(2);
  }
}
