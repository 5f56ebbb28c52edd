/**
 * The doctor's checks, for QA pointing the app at staging: the configuration, the service's
 * discovery document and its JWKS, judged against what the interface specification and this
 * client need. Each line passes, warns or fails, and says what to do. Pure: they judge what they
 * are given (doctor.ts fetches the documents), and return codes with values
 * (lib/verification/doctor-findings.ts), which lib/view/doctor-words.ts puts into a reader's words.
 */
import type { JWK } from 'jose';
import {
  acceptedIdTokenEncryption,
  advertisedIdTokenEncryption,
  CLAIM_NAMES,
  clientPublicJwks,
  describeIdTokenEncryption,
  isIdvError,
  ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS,
  ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS,
  TRUST_FRAMEWORKS,
  type IdTokenEncryption,
} from '@/lib/oidc';
import type {
  DetailValues,
  DoctorDetail,
  DoctorEndpoint,
  DoctorFindings,
  DoctorFix,
  DoctorLine,
  DoctorStatus,
  DoctorTitle,
  FetchProblem,
  FixValues,
  TitleValues,
  TransportCause,
} from '@/lib/verification/doctor-findings';
import { isLoopback, type ConfigurationError, type ServerConfig } from './env';

const title = <Code extends keyof TitleValues>(code: Code, ...values: TitleValues[Code]) => ({ code, values }) as DoctorTitle;
const detail = <Code extends keyof DetailValues>(code: Code, ...values: DetailValues[Code]) => ({ code, values }) as DoctorDetail;
const fixing = <Code extends keyof FixValues>(code: Code, ...values: FixValues[Code]) => ({ code, values }) as DoctorFix;

const line = (id: string, heading: DoctorTitle, status: DoctorStatus, found: DoctorDetail, fix?: DoctorFix): DoctorLine => ({
  id,
  title: heading,
  status,
  detail: found,
  ...(fix && status !== 'pass' ? { fix } : {}),
});

/**
 * What to set to run against staging: what the app knows (its address, and in provider mode the
 * service and client it uses) as values, the rest as placeholders.
 */
export function stagingEnvironment(
  config: Pick<ServerConfig, 'mode' | 'issuer' | 'appUrl' | 'redirectUri' | 'client'>,
): NonNullable<DoctorFindings['environment']> {
  const provider = config.mode === 'provider';
  return {
    redirectUri: config.redirectUri,
    variables: [
      provider ? { name: 'IDV_BASE_URL', value: config.issuer } : { name: 'IDV_BASE_URL', placeholder: 'baseUrl' },
      provider ? { name: 'IDV_CLIENT_ID', value: config.client.clientId } : { name: 'IDV_CLIENT_ID', placeholder: 'clientId' },
      { name: 'IDV_SIGNING_KEY', placeholder: 'signingKey' },
      { name: 'IDV_ENCRYPTION_KEY', placeholder: 'encryptionKey' },
      { name: 'APP_URL', value: config.appUrl },
      { name: 'SESSION_SECRET', placeholder: 'sessionSecret' },
      { name: 'IDV_UI_LOCALES', value: 'off' },
      { name: 'IDV_FLOW_URL', placeholder: 'flowUrl', commented: true },
    ],
  };
}

/**
 * The cause of a failed request, from the core's code and the platform's code it keeps
 * (`cause.transportCode`): Node's DNS, socket and OpenSSL codes.
 * @see https://nodejs.org/api/errors.html#common-system-errors
 * @see https://nodejs.org/api/tls.html#x509-certificate-error-codes
 */
export function transportCause(error: unknown): TransportCause {
  if (!isIdvError(error)) return 'other';
  if (error.code === 'timeout') return 'timeout';
  const code = typeof error.cause.transportCode === 'string' ? error.cause.transportCode : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return 'closed';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return 'timeout';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'tls_hostname';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'tls_expired';
  if (
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'UNABLE_TO_GET_ISSUER_CERT',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      'CERT_UNTRUSTED',
      'CERT_SIGNATURE_FAILURE',
      'CERT_REVOKED',
    ].includes(code)
  ) {
    return 'tls_untrusted';
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' || code === 'ERR_SSL_HTTP_REQUEST') return 'tls_not_tls';
  if (/^(ERR_SSL_|ERR_TLS_|CERT_)/.test(code)) return 'tls';
  return 'other';
}

/** https, or http on a loopback host (development against a local provider or the embedded emulator). */
function secureEnough(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
  } catch {
    return false;
  }
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined);

/** A member that lists supported values: pass when it has every one of `needed`, warn when absent, fail when it lacks one. */
function supports(metadata: Record<string, unknown>, member: string, needed: readonly string[], id: string, heading: DoctorTitle, fix: DoctorFix): DoctorLine {
  const listed = strings(metadata[member]);
  if (!listed) return line(id, heading, 'warn', detail('notListed', member, needed), fix);
  const missing = needed.filter((value) => !listed.includes(value));
  return missing.length === 0
    ? line(id, heading, 'pass', detail('listed', member, listed))
    : line(id, heading, 'fail', detail('lacks', member, missing, listed), fix);
}

export interface DiscoveryContext {
  issuer: string;
  /** the algorithm of our signing key (client assertions and request objects) */
  signingAlg: string;
  /** the ID token encryptions pinned by IDV_ID_TOKEN_ENCRYPTION, if any */
  idTokenEncryption?: readonly IdTokenEncryption[];
}

/**
 * What the service advertises for ID token encryption and what we accept of it (spec 2.5 shows
 * RSA-OAEP-256 / A256GCM only as an example): pass when we accept something it advertises, warn
 * when it advertises nothing (we accept the example) or also values we never accept, fail when
 * nothing it advertises is acceptable. A pinned list passes unless the document advertises
 * lists that leave out a pinned combination.
 */
function checkIdTokenEncryption(metadata: Record<string, unknown>, pinned: readonly IdTokenEncryption[] | undefined): DoctorLine {
  const heading = title('idTokenEncryption');
  const algs = strings(metadata.id_token_encryption_alg_values_supported);
  const encs = strings(metadata.id_token_encryption_enc_values_supported);
  const accepted = acceptedIdTokenEncryption(metadata, pinned).map(describeIdTokenEncryption);
  if (pinned) {
    const unadvertised = pinned.filter(({ alg, enc }) => (algs && !algs.includes(alg)) || (encs && !encs.includes(enc))).map(describeIdTokenEncryption);
    return line(
      'id-token-encryption',
      heading,
      unadvertised.length > 0 ? 'warn' : 'pass',
      detail('encryptionPinned', accepted, unadvertised),
      fixing('idTokenEncryptionPinned'),
    );
  }
  if (!algs && !encs)
    return line('id-token-encryption', heading, 'warn', detail('encryptionNotAdvertised', accepted), fixing('idTokenEncryptionNotAdvertised'));
  if (advertisedIdTokenEncryption(metadata).length === 0) {
    return line('id-token-encryption', heading, 'fail', detail('encryptionNoneAccepted', algs ?? [], encs ?? []), fixing('idTokenEncryptionNone'));
  }
  const ours: readonly string[] = [...ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS, ...ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS];
  const ignored = [...(algs ?? []), ...(encs ?? [])].filter((value) => !ours.includes(value));
  return line(
    'id-token-encryption',
    heading,
    ignored.length > 0 ? 'warn' : 'pass',
    detail('encryptionAdvertised', algs ?? [], encs ?? [], accepted, ignored),
    fixing('idTokenEncryptionIgnored'),
  );
}

/** The discovery document's lines. */
export function checkDiscovery(metadata: Record<string, unknown>, { issuer, signingAlg, idTokenEncryption }: DiscoveryContext): DoctorLine[] {
  const lines: DoctorLine[] = [];
  lines.push(
    metadata.issuer === issuer
      ? line('issuer', title('issuer'), 'pass', detail('issuerMatches', issuer))
      : line('issuer', title('issuer'), 'fail', detail('issuerDiffers', String(JSON.stringify(metadata.issuer)), issuer), fixing('issuer')),
  );
  const endpoints = ['pushed_authorization_request_endpoint', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;
  const listed = endpoints.filter((name) => typeof metadata[name] === 'string');
  const insecure = listed.filter((name) => !secureEnough(metadata[name] as string));
  const absent = endpoints.filter((name) => metadata[name] === undefined);
  const named = (names: readonly string[]) => names.map((name) => [name, String(metadata[name])] as const);
  lines.push(
    insecure.length > 0
      ? line('https', title('https'), 'fail', detail('notHttps', named(insecure)), fixing('httpsInsecure'))
      : line(
          'https',
          title('https'),
          absent.length > 0 ? 'warn' : 'pass',
          detail(
            'endpoints',
            named(listed),
            listed.some((name) => (metadata[name] as string).startsWith('http:')),
            absent,
          ),
          fixing('httpsAbsent'),
        ),
  );
  const par = metadata.require_pushed_authorization_requests;
  lines.push(
    par === true
      ? line('par', title('par'), 'pass', detail('parRequired'))
      : par === undefined
        ? line('par', title('par'), 'warn', detail('parAbsent'), fixing('parAbsent'))
        : line('par', title('par'), 'fail', detail('parNotRequired', String(JSON.stringify(par))), fixing('parNotRequired')),
  );
  lines.push(supports(metadata, 'id_token_signing_alg_values_supported', ['ES256'], 'id-token-signing', title('idTokenSigning'), fixing('idTokenSigning')));
  lines.push(checkIdTokenEncryption(metadata, idTokenEncryption));
  lines.push(
    supports(
      metadata,
      'token_endpoint_auth_methods_supported',
      ['private_key_jwt'],
      'client-authentication',
      title('clientAuthentication'),
      fixing('clientAuthentication'),
    ),
  );
  lines.push(
    supports(
      metadata,
      'token_endpoint_auth_signing_alg_values_supported',
      [signingAlg],
      'client-assertion-alg',
      title('clientAssertionAlg', signingAlg),
      fixing('signingAlg'),
    ),
  );
  lines.push(
    supports(
      metadata,
      'request_object_signing_alg_values_supported',
      [signingAlg],
      'request-object-alg',
      title('requestObjectAlg', signingAlg),
      fixing('signingAlg'),
    ),
  );
  lines.push(supports(metadata, 'trust_frameworks_supported', TRUST_FRAMEWORKS, 'trust-frameworks', title('trustFrameworks'), fixing('trustFrameworks')));
  lines.push(supports(metadata, 'claims_in_verified_claims_supported', CLAIM_NAMES, 'claims', title('claims'), fixing('claims')));
  lines.push(supports(metadata, 'evidence_supported', ['document', 'electronic_record'], 'evidence', title('evidence'), fixing('evidence')));
  lines.push(
    metadata.authorization_response_iss_parameter_supported === true
      ? line('response-issuer', title('responseIssuer'), 'pass', detail('issuerParameter'))
      : line('response-issuer', title('responseIssuer'), 'warn', detail('issuerParameterAbsent'), fixing('responseIssuer')),
  );
  return lines;
}

/** The JWKS's lines. */
export function checkJwks(jwks: Record<string, unknown>): DoctorLine[] {
  const keys = Array.isArray(jwks.keys) ? (jwks.keys.filter((key) => key && typeof key === 'object') as JWK[]) : undefined;
  if (!keys) return [line('jwks-keys', title('jwksPublished'), 'fail', detail('noKeysArray'), fixing('jwksUri'))];
  const lines: DoctorLine[] = [];
  const signing = keys.filter(
    (key) =>
      key.kty === 'EC' &&
      key.crv === 'P-256' &&
      (key.use === undefined || key.use === 'sig') &&
      (key.alg === undefined || key.alg === 'ES256') &&
      typeof key.kid === 'string',
  );
  lines.push(
    signing.length > 0
      ? line(
          'jwks-keys',
          title('jwksSigningKey'),
          'pass',
          detail(
            'signingKeys',
            keys.length,
            signing.map((key) => key.kid!),
          ),
        )
      : line('jwks-keys', title('jwksSigningKey'), 'fail', detail('noSigningKey', keys.length), fixing('jwksSigningKey')),
  );
  const kids = keys.map((key) => key.kid).filter((kid): kid is string => typeof kid === 'string');
  const duplicates = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  lines.push(
    duplicates.length === 0
      ? line('jwks-kids', title('jwksKids'), 'pass', detail('kidsUnique', kids.length))
      : line('jwks-kids', title('jwksKids'), 'fail', detail('kidsRepeated', duplicates), fixing('jwksKids')),
  );
  const privateKeys = keys.filter((key) => ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((member) => member in key));
  lines.push(
    privateKeys.length === 0
      ? line('jwks-public', title('jwksPublic'), 'pass', detail('noPrivateKeys'))
      : line(
          'jwks-public',
          title('jwksPublic'),
          'fail',
          detail(
            'privateKeys',
            privateKeys.map((key) => key.kid),
          ),
          fixing('jwksPublic'),
        ),
  );
  return lines;
}

/** Our own configuration's lines. */
export function checkConfiguration(
  config: Pick<ServerConfig, 'mode' | 'issuer' | 'appUrl' | 'redirectUri' | 'client' | 'uiLocales' | 'emulatorStrict' | 'generated'>,
): DoctorLine[] {
  const { signingKey, encryptionKey } = config.client;
  const provider = config.mode === 'provider';
  const redirect = new URL(config.redirectUri);
  // Provider mode on development keys: the service trusts only the keys registered with it.
  const keyLine = (id: string, heading: DoctorTitle, variable: string, alg: string, kid: string) =>
    config.generated.includes(variable)
      ? line(id, heading, provider ? 'warn' : 'pass', detail('devKey', alg, kid, variable), fixing('devKeyProvider', variable))
      : line(id, heading, 'pass', detail('key', alg, kid));
  // http on a loopback host is allowed for APP_URL, but a service on https (FAPI 2.0) refuses such a redirect URI.
  const redirectLine =
    redirect.protocol !== 'https:' && !isLoopback(redirect)
      ? line('redirect-uri', title('redirectUri'), 'fail', detail('redirectInsecure', config.redirectUri), fixing('redirectUri'))
      : redirect.protocol !== 'https:' && provider && config.issuer.startsWith('https:')
        ? line('redirect-uri', title('redirectUri'), 'warn', detail('redirectHttp', config.redirectUri, config.issuer), fixing('redirectHttp'))
        : line('redirect-uri', title('redirectUri'), 'pass', detail('redirectRegister', config.redirectUri));
  const byDefault = config.uiLocales.source === 'default';
  // ui_locales is not among the claims of spec 2.2: a strict service (or the strict emulator) refuses it.
  const uiLocales = !config.uiLocales.send
    ? line('ui-locales', title('uiLocales'), 'pass', detail('uiLocalesNotSent', byDefault))
    : config.mode === 'provider'
      ? line('ui-locales', title('uiLocales'), 'warn', detail('uiLocalesSent', byDefault), fixing('uiLocalesProvider'))
      : line('ui-locales', title('uiLocales'), config.emulatorStrict ? 'warn' : 'pass', detail('uiLocalesSent', byDefault), fixing('uiLocalesStrict'));
  return [
    line('mode', title('configuration'), 'pass', detail('mode', config.mode, config.issuer, config.client.clientId)),
    redirectLine,
    keyLine('signing-key', title('signingKey'), 'IDV_SIGNING_KEY', signingKey.alg, String(signingKey.kid)),
    keyLine('encryption-key', title('encryptionKey'), 'IDV_ENCRYPTION_KEY', encryptionKey.alg ?? 'RSA-OAEP-256', String(encryptionKey.kid)),
    uiLocales,
  ];
}

/** A document as fetched: its JSON object, or why there is none. */
export type Fetched = { url: string; body: Record<string, unknown> } | { url: string; problem: FetchProblem };

/** The line of a fetched document: a pass naming its URL, or a fail saying why it could not be fetched and what to do. */
function fetchedLine(endpoint: DoctorEndpoint, fetched: Fetched): DoctorLine {
  const heading = title(endpoint === 'discovery' ? 'discovery' : 'jwks');
  if ('body' in fetched) return line(endpoint, heading, 'pass', detail('asWritten', fetched.url));
  const { problem } = fetched;
  const variable = endpoint === 'discovery' ? 'IDV_BASE_URL' : 'jwks_uri';
  const fix =
    problem.kind === 'error' ? fixing('unreachable', problem.cause, variable, problem.host) : fixing(endpoint === 'discovery' ? 'discovery' : 'jwksUri');
  return line(endpoint, heading, 'fail', detail('fetchFailed', problem, fetched.url), fix);
}

/** Where the JWKS is: the discovery document's `jwks_uri`, else part 4's path under the issuer. */
export function jwksUriOf(issuer: string, discovery: Record<string, unknown>): string {
  return typeof discovery.jwks_uri === 'string' ? discovery.jwks_uri : `${issuer.replace(/\/$/, '')}/jwks`;
}

/** fail when any line fails, warn when any warns */
function summary(lines: readonly DoctorLine[]): DoctorStatus {
  return lines.some((l) => l.status === 'fail') ? 'fail' : lines.some((l) => l.status === 'warn') ? 'warn' : 'pass';
}

/**
 * Every check, of the configuration and of the documents as fetched (the JWKS only once discovery
 * was): the doctor's findings, before they are put into words.
 */
export function findingsOf(config: ServerConfig, { discovery, jwks }: { discovery: Fetched; jwks?: Fetched }): DoctorFindings {
  const lines = checkConfiguration(config);
  lines.push(fetchedLine('discovery', discovery));
  if ('body' in discovery) {
    lines.push(
      ...checkDiscovery(discovery.body, {
        issuer: config.issuer,
        signingAlg: config.client.signingKey.alg,
        ...(config.idTokenEncryption ? { idTokenEncryption: config.idTokenEncryption } : {}),
      }),
    );
    if (jwks) lines.push(fetchedLine('jwks', jwks), ...('body' in jwks ? checkJwks(jwks.body) : []));
  }
  const problem = 'problem' in discovery ? discovery.problem : jwks && 'problem' in jwks ? jwks.problem : undefined;
  return {
    lines,
    publicJwks: clientPublicJwks(config.client),
    status: summary(lines),
    service: { mode: config.mode, issuer: config.issuer, ...(problem ? { problem } : {}) },
    environment: stagingEnvironment(config),
  };
}

/** A configuration that does not load: one failed line, in the configuration's own words (they name the variable). */
export function configurationFailed(error: Pick<ConfigurationError, 'message' | 'variable'>): DoctorFindings {
  return {
    lines: [line('configuration', title('configuration'), 'fail', detail('asWritten', error.message), fixing('configuration', error.variable))],
    publicJwks: { keys: [] },
    status: 'fail',
  };
}
