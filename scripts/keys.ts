/**
 * `npm run keys`: a fresh client key pair for registering with the service (spec part 1,
 * "Prerequisites for a client"): the private JWKs to put in the environment and the public JWKS
 * to register. Nothing is written to disk.
 *
 *   npm run keys                   ES256 signing key + RSA-OAEP-256 encryption key
 *   npm run keys -- --alg PS256    or PS256 / EdDSA for the signing key
 *   npm run keys -- --json         one JSON object instead of an env snippet
 *   npm run keys -- --env-file     lines for an env file (compose's .env, `docker run --env-file`)
 */
import { clientPublicJwks, generateClientKeys } from '../lib/oidc/client-keys';
import { CLIENT_SIGNING_ALGORITHMS, type ClientSigningAlgorithm } from '../lib/oidc/types';

export interface KeysOptions {
  alg: ClientSigningAlgorithm;
  json: boolean;
  /** unquoted `NAME=value` lines: env files take the rest of the line as the value, quotes included */
  envFile: boolean;
}

export function parseKeysArguments(args: string[]): KeysOptions {
  const options: KeysOptions = { alg: 'ES256', json: false, envFile: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--json') options.json = true;
    else if (arg === '--env-file') options.envFile = true;
    else if (arg === '--alg' || arg.startsWith('--alg=')) {
      const value = arg === '--alg' ? args[++i] : arg.slice('--alg='.length);
      if (!value || !(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(value)) {
        throw new Error(`--alg must be one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`);
      }
      options.alg = value as ClientSigningAlgorithm;
    } else throw new Error(`unknown argument "${arg}" (use --alg ES256|PS256|EdDSA, --json or --env-file)`);
  }
  if (options.json && options.envFile) throw new Error('--json and --env-file are two different outputs: choose one');
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
  if (options.envFile) {
    // Docker's and Podman's --env-file keep quotes as part of the value (compose's .env reader
    // would strip them, podman-compose hands the file to Podman): JSON goes in as it is, and the
    // public JWKS as one comment line.
    return [
      '# Private keys (keep this file secret). Register the public JWKS below with the service.',
      `IDV_SIGNING_KEY=${JSON.stringify(keys.signingKey)}`,
      `IDV_ENCRYPTION_KEY=${JSON.stringify(keys.encryptionKey)}`,
      `# public JWKS: ${JSON.stringify(jwks)}`,
    ].join('\n');
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
