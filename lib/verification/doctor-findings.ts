/**
 * The doctor's findings as data: what each check found, with no words of either language. A
 * line's title, detail and fix are each a code with its values; the catalog words every code in
 * each language (tsc proves it), when the findings are read. So one set of findings, reused for 15
 * seconds by GET /doctor and the header's badge, reads in each reader's language.
 */
import type { clientPublicJwks } from '@/lib/oidc';

export type DoctorStatus = 'pass' | 'warn' | 'fail';

/** Which endpoint a fetch problem is about. */
export type DoctorEndpoint = 'discovery' | 'jwks';

/**
 * Why a request got no answer, from the core's error code and the platform's code of the failure
 * (`cause.transportCode`): the name did not resolve, nothing listens, the connection was closed,
 * no answer in time, the TLS certificate is not trusted here, has expired, names another host,
 * or the address does not speak TLS at all; or something else.
 */
export const TRANSPORT_CAUSES = ['dns', 'refused', 'closed', 'timeout', 'tls_untrusted', 'tls_expired', 'tls_hostname', 'tls_not_tls', 'tls', 'other'] as const;
export type TransportCause = (typeof TRANSPORT_CAUSES)[number];

/** Why a document could not be fetched. */
export type FetchProblem =
  | { kind: 'status'; endpoint: DoctorEndpoint; status: number }
  | { kind: 'not_object'; endpoint: DoctorEndpoint }
  /**
   * the core's error message, which names the endpoint already ("The discovery endpoint could not
   * be reached: …"), its cause, and the host asked (`host:port`)
   */
  | { kind: 'error'; endpoint: DoctorEndpoint; message: string; cause: TransportCause; host: string };

/** Endpoints of the discovery document, each as `[member, url]`. */
type NamedEndpoints = readonly (readonly [member: string, url: string])[];

/** Each line's title, by code, with the values it names. */
export interface TitleValues {
  configuration: [];
  redirectUri: [];
  signingKey: [];
  encryptionKey: [];
  discovery: [];
  issuer: [];
  https: [];
  par: [];
  idTokenSigning: [];
  idTokenEncryption: [];
  uiLocales: [];
  clientAuthentication: [];
  clientAssertionAlg: [alg: string];
  requestObjectAlg: [alg: string];
  trustFrameworks: [];
  claims: [];
  evidence: [];
  responseIssuer: [];
  jwks: [];
  jwksPublished: [];
  jwksSigningKey: [];
  jwksKids: [];
  jwksPublic: [];
}

/** What a line found, by code, with its values. */
export interface DetailValues {
  /** a URL, or words from elsewhere (a configuration error), shown as they are */
  asWritten: [text: string];
  mode: [mode: string, issuer: string, clientId: string];
  redirectRegister: [uri: string];
  redirectInsecure: [uri: string];
  key: [alg: string, kid: string];
  devKey: [alg: string, kid: string, variable: string];
  redirectHttp: [uri: string, issuer: string];
  fetchFailed: [problem: FetchProblem, url: string];
  issuerMatches: [issuer: string];
  /** the issuer the document names, as JSON */
  issuerDiffers: [named: string, issuer: string];
  notHttps: [endpoints: NamedEndpoints];
  /** the endpoints listed, whether one is plain http on a loopback host, the members left out */
  endpoints: [endpoints: NamedEndpoints, loopbackHttp: boolean, absent: readonly string[]];
  parRequired: [];
  parAbsent: [];
  parNotRequired: [value: string];
  notListed: [member: string, needed: readonly string[]];
  listed: [member: string, listed: readonly string[]];
  lacks: [member: string, missing: readonly string[], listed: readonly string[]];
  encryptionAdvertised: [algs: readonly string[], encs: readonly string[], accepted: readonly string[], ignored: readonly string[]];
  encryptionNoneAccepted: [algs: readonly string[], encs: readonly string[]];
  encryptionNotAdvertised: [accepted: readonly string[]];
  encryptionPinned: [pinned: readonly string[], unadvertised: readonly string[]];
  uiLocalesSent: [byDefault: boolean];
  uiLocalesNotSent: [byDefault: boolean];
  issuerParameter: [];
  issuerParameterAbsent: [];
  noKeysArray: [];
  signingKeys: [keys: number, kids: readonly string[]];
  noSigningKey: [keys: number];
  kidsUnique: [kids: number];
  kidsRepeated: [kids: readonly string[]];
  noPrivateKeys: [];
  privateKeys: [kids: readonly (string | undefined)[]];
}

/** What to do when a line warns or fails, by code, with its values. */
export interface FixValues {
  configuration: [variable: string];
  redirectUri: [];
  redirectHttp: [];
  devKeyProvider: [variable: string];
  discovery: [];
  issuer: [];
  httpsInsecure: [];
  httpsAbsent: [];
  parAbsent: [];
  parNotRequired: [];
  idTokenSigning: [];
  idTokenEncryptionNone: [];
  idTokenEncryptionIgnored: [];
  idTokenEncryptionNotAdvertised: [];
  idTokenEncryptionPinned: [];
  uiLocalesProvider: [];
  uiLocalesStrict: [];
  clientAuthentication: [];
  signingAlg: [];
  trustFrameworks: [];
  claims: [];
  evidence: [];
  responseIssuer: [];
  jwksUri: [];
  /** a request got no answer: what to do for its cause, `variable` the setting that names the address */
  unreachable: [cause: TransportCause, variable: 'IDV_BASE_URL' | 'jwks_uri', host: string];
  jwksSigningKey: [];
  jwksKids: [];
  jwksPublic: [];
}

/** One code of `Values` with its values. */
export type Coded<Values> = { [Code in keyof Values]: { code: Code; values: Values[Code] } }[keyof Values];

export type DoctorTitle = Coded<TitleValues>;
export type DoctorDetail = Coded<DetailValues>;
export type DoctorFix = Coded<FixValues>;

/** One check's outcome. */
export interface DoctorLine {
  /** stable, for tests and scripts */
  id: string;
  title: DoctorTitle;
  status: DoctorStatus;
  /** what was found */
  detail: DoctorDetail;
  /** what to do, when it is not a pass */
  fix?: DoctorFix;
}

/** What stands for a value the app does not know (or never shows) among the variables for staging. */
export type EnvironmentPlaceholder = 'baseUrl' | 'clientId' | 'signingKey' | 'encryptionKey' | 'sessionSecret' | 'flowUrl';

/** A variable of the environment that points the app at staging: a value the app knows, or a placeholder to fill in. */
export type EnvironmentVariable = { name: string; value: string } | { name: string; placeholder: EnvironmentPlaceholder; commented?: true };

/** The service as the header's badge shows it: its mode and issuer, and why it could not be fetched. */
export interface ServiceFindings {
  mode: 'emulator' | 'provider';
  issuer: string;
  /** why discovery or the JWKS could not be fetched; none when both were */
  problem?: FetchProblem;
}

/** Every check's outcome: what is reused across requests, and read in any language. */
export interface DoctorFindings {
  lines: DoctorLine[];
  /** our public keys, to register with the service */
  publicJwks: ReturnType<typeof clientPublicJwks>;
  /** fail when any line fails, warn when any warns */
  status: DoctorStatus;
  /** the service asked; none when the configuration does not load */
  service?: ServiceFindings;
  /** the variables that point the app at staging (none when the configuration does not load) */
  environment?: { variables: EnvironmentVariable[]; redirectUri: string };
}
