/**
 * The words of the doctor (doctor-words.ts, app/doctor/page.tsx, scripts/doctor.ts), in each
 * language (lib/i18n). Member names, algorithms, codes, variables, commands and URLs are never
 * translated; only the words around them are. What the core says of a failed request (its error
 * message, for logs) and what the configuration says of a bad variable are shown as written.
 *
 * A line's title, detail and fix are kept as data, each a code with its values
 * (lib/verification/doctor-findings.ts), and put into words for each reader, so that one report,
 * reused for 15 seconds, reads in either language. Every code has words in each language: tsc
 * proves it.
 */
import type { Locale } from '@/lib/i18n/locale';
import type {
  DetailValues,
  DoctorEndpoint,
  EnvironmentPlaceholder,
  FetchProblem,
  FixValues,
  TitleValues,
  TransportCause,
} from '@/lib/verification/doctor-findings';

/** Words for every code of `Values`: a string where the code has no values, else a function of them. */
export type Wording<Values extends { [Code in keyof Values]: unknown[] }> = {
  [Code in keyof Values]: Values[Code] extends [] ? string : (...values: Values[Code]) => string;
};

/** The cause of a failed request in a few words: the badge's short reason and the start of the doctor's detail. */
const CAUSES_EN: Record<TransportCause, string> = {
  dns: 'the host name does not resolve (DNS)',
  refused: 'connection refused: nothing listens there',
  closed: 'the connection was closed without an answer',
  timeout: 'no answer in time (timeout)',
  tls_untrusted: 'TLS: the certificate is not trusted here',
  tls_expired: 'TLS: the certificate has expired or is not yet valid',
  tls_hostname: 'TLS: the certificate is for another host name',
  tls_not_tls: 'TLS: the address does not speak TLS (plain http?)',
  tls: 'TLS: the secure connection failed',
  other: 'the request failed',
};
const CAUSES_NB: Record<TransportCause, string> = {
  dns: 'vertsnavnet finnes ikke i DNS',
  refused: 'tilkoblingen ble avvist: ingenting lytter der',
  closed: 'tilkoblingen ble lukket uten svar',
  timeout: 'ikke noe svar i tide (tidsavbrudd)',
  tls_untrusted: 'TLS: sertifikatet er ikke klarert her',
  tls_expired: 'TLS: sertifikatet er utløpt eller ikke gyldig ennå',
  tls_hostname: 'TLS: sertifikatet gjelder et annet vertsnavn',
  tls_not_tls: 'TLS: adressen snakker ikke TLS (ukryptert http?)',
  tls: 'TLS: den sikre tilkoblingen feilet',
  other: 'forespørselen feilet',
};

const ENDPOINTS_EN: Record<DoctorEndpoint, string> = { discovery: 'The discovery endpoint', jwks: 'The JWKS endpoint' };
const ENDPOINTS_NB: Record<DoctorEndpoint, string> = { discovery: 'Discovery-endepunktet', jwks: 'JWKS-endepunktet' };

/** `name url, name url` */
const endpointList = (endpoints: readonly (readonly [string, string])[]) => endpoints.map(([name, url]) => `${name} ${url}`).join(', ');

const en = {
  /** the page's title and heading */
  title: 'Doctor',
  /** the page's introduction, around `command` */
  intro: [
    'The configuration, the service’s discovery document and its key set, checked against what the interface specification and this client need. ',
    ' prints the same. A report is at most 15 seconds old.',
  ] as [string, string],
  command: 'npm run doctor',
  /** a line's status, spoken before its title on the page */
  statuses: { pass: 'Pass', warn: 'Warning', fail: 'Fail' },
  /** a line's status, printed before it by `npm run doctor` */
  marks: { pass: 'PASS', warn: 'WARN', fail: 'FAIL' },
  /** the summary: `passed` (emphasised on the page), then `others` */
  passed: (count: number) => `${count} passed`,
  others: (warnings: number, failures: number) => `, ${warnings} with a warning, ${failures} failed.`,
  checks: 'Checks',
  /** before a line's fix */
  whatToDo: 'What to do:',
  publicJwks: 'Our public JWKS, to register with the service',
  publicJwksPrinted: 'Our public JWKS, to register with the service (public keys only):',
  /** what `npm run doctor` says of the running app it asks (`findings`: the URL of its GET /doctor/findings) */
  cli: {
    asked: (app: string, findings: string) => `The app at ${app}, as it runs: its own findings (${findings}, at most 15 seconds old).`,
    unreachable: (app: string, why: string) =>
      `Nothing answers at ${app} (${why}). The doctor asks the running app for its own findings: start the app with the same variables (npm run dev, or npm start after npm run build), or say where it runs: APP_URL=<its address> npm run doctor, or npm run doctor -- --url <its address>.`,
    notFindings: (findings: string, status: number) =>
      `${findings} answered ${status} without the doctor's findings: is this the app's address (APP_URL, or --url)?`,
  },
  /** why a request got no answer, in a few words (the header's badge says it too) */
  causes: CAUSES_EN,
  /** the header's badge: the mode, the service's state and, when not OK, why in a few words */
  badge: {
    states: { ok: 'OK', degraded: 'Degraded', down: 'Unreachable', checking: 'Checking…', configuration: 'Not configured' },
    endpoints: { discovery: 'Discovery', jwks: 'Key set (JWKS)' },
    status: 'answered with an error status',
    notObject: 'did not answer with a JSON object',
    stale: 'the last good copy is in use',
    findings: (warnings: number, failures: number) =>
      [warnings > 0 ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '', failures > 0 ? `${failures} failed check${failures === 1 ? '' : 's'}` : '']
        .filter(Boolean)
        .join(', ') + ' in the doctor',
    configuration: 'the configuration does not load',
    /** the hover text's lead, before the issuer */
    service: 'Service:',
    /** after the short reason: the badge is a link to the doctor */
    seeDoctor: 'Details in the doctor',
  },
  /** the card of the variables that point the app at staging */
  environment: {
    title: 'The variables for staging',
    titleProvider: 'The variables of this configuration',
    intro:
      'To point the app at the real service (staging) instead of the embedded emulator, set these variables and restart it. Values in angle brackets are yours to fill in; the rest this app knows. Private keys and secrets are never shown here.',
    introProvider: 'What this app runs with, as variables: values in angle brackets are secret and never shown here.',
    printed: 'The variables for staging (values in angle brackets are yours to fill in):',
    copy: 'Copy the variables',
    copied: 'Copied',
    notes: {
      IDV_BASE_URL: "The service's base URL: its issuer, exactly, with no trailing slash",
      IDV_CLIENT_ID: 'The client identifier the service issued to you',
      IDV_SIGNING_KEY: 'Our private keys: npm run keys prints a pair, and the public JWKS to register with the service',
      APP_URL: (redirectUri: string) => `Where the app is reached; the redirect URI to register with the service is ${redirectUri}`,
      SESSION_SECRET: '32 or more random characters: openssl rand -base64 32',
      IDV_UI_LOCALES: 'Spec 2.2 does not list ui_locales: a service that checks its letter refuses it',
      IDV_FLOW_URL: "Only if the discovery document has no authorization_endpoint: the base of the service's /auth",
    },
    placeholders: {
      baseUrl: 'https://base URL of the service',
      clientId: 'client_id',
      signingKey: 'private signing JWK from npm run keys',
      encryptionKey: 'private encryption JWK from npm run keys',
      sessionSecret: '32+ random characters',
      flowUrl: 'https://flow URL of the service',
    } satisfies Record<EnvironmentPlaceholder, string>,
  },

  /** each line's title */
  titles: {
    configuration: 'Configuration valid',
    redirectUri: 'Redirect URI',
    signingKey: 'Our signing key',
    encryptionKey: 'Our encryption key',
    discovery: 'Discovery document',
    issuer: 'Issuer equals IDV_BASE_URL',
    https: 'Endpoints use https',
    par: 'Pushed authorization requests required',
    idTokenSigning: 'ID tokens signed with ES256',
    idTokenEncryption: 'ID token encryption we accept',
    uiLocales: 'ui_locales in the request object',
    clientAuthentication: 'Client authentication by private_key_jwt',
    clientAssertionAlg: (alg: string) => `Client assertions signed with our key's ${alg}`,
    requestObjectAlg: (alg: string) => `Request objects signed with our key's ${alg}`,
    trustFrameworks: 'Trust frameworks standard and standard_etsi',
    claims: 'Every claim the picker offers, as verified claims',
    evidence: 'Document and register evidence',
    responseIssuer: 'Issuer in the authorization response (RFC 9207)',
    jwks: 'Key set (JWKS)',
    jwksPublished: 'Signing keys published',
    jwksSigningKey: 'An ES256 signing key with a kid',
    jwksKids: 'Key ids unique',
    jwksPublic: 'Public keys only',
  } satisfies Wording<TitleValues>,

  /** what each line found */
  details: {
    /** a URL, or words from elsewhere (a configuration error), shown as they are */
    asWritten: (text: string) => text,
    mode: (mode: string, issuer: string, clientId: string) => `${mode} mode, issuer ${issuer}, client ${clientId}`,
    redirectRegister: (uri: string) => `${uri} (register exactly this one with the service)`,
    redirectInsecure: (uri: string) => `${uri} is plain http on a public host`,
    key: (alg: string, kid: string) => `${alg}, kid ${kid}`,
    devKey: (alg: string, kid: string, variable: string) =>
      `${alg}, kid ${kid}: a development key generated into the data folder, since ${variable} is not set`,
    redirectHttp: (uri: string, issuer: string) => `${uri} is plain http, while the service ${issuer} uses https`,
    fetchFailed: (problem: FetchProblem, url: string) =>
      `${
        problem.kind === 'status'
          ? `${ENDPOINTS_EN[problem.endpoint]} answered HTTP ${problem.status}`
          : problem.kind === 'not_object'
            ? `${ENDPOINTS_EN[problem.endpoint]} did not answer with a JSON object`
            : `${problem.cause === 'other' ? '' : `${CAUSES_EN[problem.cause]}: `}${problem.message}`
      } (${url})`,
    issuerMatches: (issuer: string) => `issuer ${issuer}`,
    issuerDiffers: (named: string, issuer: string) => `the document names ${named}, not ${issuer}`,
    notHttps: (endpoints: readonly (readonly [string, string])[]) => `not https: ${endpointList(endpoints)}`,
    endpoints: (endpoints: readonly (readonly [string, string])[], loopbackHttp: boolean, absent: readonly string[]) =>
      `${endpointList(endpoints) || 'no endpoint listed'}${loopbackHttp ? ' (plain http on a loopback host: development only)' : ''}${
        absent.length > 0 ? `; not in the document: ${absent.join(', ')} (part 4's paths are used instead)` : ''
      }`,
    parRequired: 'require_pushed_authorization_requests: true',
    parAbsent: 'require_pushed_authorization_requests is not in the document (part 4 requires PAR; this client always uses it)',
    parNotRequired: (value: string) => `require_pushed_authorization_requests: ${value}, but part 4 requires PAR`,
    notListed: (member: string, needed: readonly string[]) => `${member} is not in the document, so support for ${needed.join(', ')} cannot be confirmed`,
    listed: (member: string, listed: readonly string[]) => `${member}: ${listed.join(', ')}`,
    lacks: (member: string, missing: readonly string[], listed: readonly string[]) =>
      `${member} lacks ${missing.join(', ')} (it lists ${listed.join(', ') || 'nothing'})`,
    encryptionAdvertised: (algs: readonly string[], encs: readonly string[], accepted: readonly string[], ignored: readonly string[]) =>
      `the document advertises alg ${algs.join(', ') || 'nothing'} and enc ${encs.join(', ') || 'nothing'}; we accept ${accepted.join(', ')}${ignored.length > 0 ? `; we never accept ${ignored.join(', ')}` : ''}`,
    encryptionNoneAccepted: (algs: readonly string[], encs: readonly string[]) =>
      `the document advertises alg ${algs.join(', ') || 'nothing'} and enc ${encs.join(', ') || 'nothing'}: no combination of RSA-OAEP-256 or RSA-OAEP with AES-GCM or AES-CBC-HMAC, the only ones we accept`,
    encryptionNotAdvertised: (accepted: readonly string[]) =>
      `id_token_encryption_alg_values_supported and _enc_values_supported are not in the document; we accept the spec's example, ${accepted.join(', ')}`,
    encryptionPinned: (pinned: readonly string[], unadvertised: readonly string[]) =>
      `pinned by IDV_ID_TOKEN_ENCRYPTION: ${pinned.join(', ')}${unadvertised.length > 0 ? `; the document does not advertise ${unadvertised.join(', ')}` : ''}`,
    uiLocalesSent: (byDefault: boolean) =>
      `sent (${byDefault ? 'the default against the embedded emulator' : 'IDV_UI_LOCALES=on'}): the service's pages may follow the app's language`,
    uiLocalesNotSent: (byDefault: boolean) =>
      `not sent (${byDefault ? 'the default' : 'IDV_UI_LOCALES=off'}): request objects carry exactly the claims of spec 2.2`,
    issuerParameter: 'authorization_response_iss_parameter_supported: true; the app then requires iss',
    issuerParameterAbsent: 'not advertised: the app checks iss only when it is sent',
    noKeysArray: 'the JWKS has no keys array',
    signingKeys: (keys: number, kids: readonly string[]) => `${keys} key${keys === 1 ? '' : 's'}, ${kids.length} for ES256 (kid ${kids.join(', ')})`,
    noSigningKey: (keys: number) => `none of the ${keys} keys is an EC P-256 signing key with a kid`,
    kidsUnique: (kids: number) => `${kids} kid${kids === 1 ? '' : 's'}, all different`,
    kidsRepeated: (kids: readonly string[]) => `repeated kid: ${kids.join(', ')}`,
    noPrivateKeys: 'no private key material',
    privateKeys: (kids: readonly (string | undefined)[]) => `private members in kid ${kids.map((kid) => kid ?? '(none)').join(', ')}`,
  } satisfies Wording<DetailValues>,

  /** what to do when a line warns or fails */
  fixes: {
    configuration: (variable: string) => `Fix ${variable} (docs/operations.md "Configuration").`,
    redirectUri: 'Set APP_URL to the https address the app is reached at.',
    redirectHttp:
      'A service that follows FAPI 2.0 registers and redirects to https redirect URIs only: set APP_URL to an https address that reaches this app (a reverse proxy or a tunnel with TLS), and register its /auth/callback.',
    devKeyProvider: (variable: string) =>
      `The service trusts only the keys registered with it: run npm run keys, set ${variable} to the private key it prints (with its pair), and register the public JWKS it prints with the service.`,
    discovery: 'Check IDV_BASE_URL and the network.',
    issuer: 'Set IDV_BASE_URL to exactly the issuer the document names (no trailing slash unless it has one).',
    httpsInsecure: 'The service must publish https endpoints; the app refuses plain http except on a loopback host.',
    httpsAbsent: "Nothing to do if part 4's paths are right; ask the provider to publish its endpoints otherwise.",
    parAbsent: 'Nothing to do for this client; the provider may add the member.',
    parNotRequired: 'Check that IDV_BASE_URL names the identity verification service.',
    idTokenSigning: 'The app verifies ES256 ID tokens (spec 2.6): ask the provider.',
    idTokenEncryptionNone:
      'The app decrypts RSA-OAEP-256 or RSA-OAEP with AES-GCM or AES-CBC-HMAC (spec 2.5): ask the provider to encrypt our ID tokens with one of them.',
    idTokenEncryptionIgnored:
      'Make sure our registration asks for a combination we accept (id_token_encrypted_response_alg and _enc), or pin it with IDV_ID_TOKEN_ENCRYPTION.',
    idTokenEncryptionNotAdvertised:
      "Nothing to do if the service uses the spec's example; otherwise set IDV_ID_TOKEN_ENCRYPTION to what it uses (e.g. RSA-OAEP/A128CBC-HS256).",
    idTokenEncryptionPinned: 'Check IDV_ID_TOKEN_ENCRYPTION against what the service uses: a token encrypted otherwise is refused.',
    uiLocalesProvider:
      'Spec 2.2 does not list ui_locales, so a service that checks its letter refuses every request: set IDV_UI_LOCALES=off unless the service is known to accept it.',
    uiLocalesStrict: "The strict emulator (EMULATOR_STRICT) refuses ui_locales as the spec's letter does: set IDV_UI_LOCALES=off, or EMULATOR_STRICT=off.",
    clientAuthentication: 'The app authenticates with private_key_jwt only (spec 5).',
    signingAlg: `Use a signing key the service accepts: npm run keys -- --alg ES256 (ES256 is the spec's).`,
    trustFrameworks: 'The picker offers what the document lists; a missing framework cannot be requested.',
    claims: 'A claim the service does not support comes back "not provided".',
    evidence: 'Evidence the service does not support comes back "not provided".',
    responseIssuer: 'Nothing to do; mix-up protection then rests on state and the issuer of the pending flow.',
    jwksUri: 'Check the jwks_uri of the discovery document.',
    /** a request got no answer: what to do for its cause, `variable` the setting that names the address */
    unreachable: (cause: TransportCause, variable: 'IDV_BASE_URL' | 'jwks_uri', host: string) =>
      ({
        dns: `${host} does not resolve from this machine: check the host name in ${variable}, and this machine's DNS (staging may be reachable only over a VPN).`,
        refused: `Nothing accepts connections at ${host}: check the port in ${variable}, that the service is running, and that no firewall refuses the connection.`,
        closed: `Something at ${host} closed the connection: check the port in ${variable} (another server may listen there), and any proxy or firewall in between.`,
        timeout: `${host} did not answer within 10 s: a firewall may drop the packets, or a proxy may be needed (Node's fetch does not read HTTPS_PROXY); or the service is overloaded: try again.`,
        tls_untrusted: `The certificate of ${host} is self-signed or from a CA this machine does not trust: use the service's public address, or give Node the CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem. Never turn verification off (NODE_TLS_REJECT_UNAUTHORIZED=0).`,
        tls_expired: `The certificate of ${host} has expired or is not valid yet: check this machine's clock; otherwise tell the provider.`,
        tls_hostname: `The certificate of ${host} names other hosts: use in ${variable} a host name the certificate names (not an IP address or an alias).`,
        tls_not_tls: `${host} answers without TLS: if it serves plain http (a local emulator), use http:// in ${variable}; otherwise check the port.`,
        tls: `The TLS connection to ${host} failed: check the host and port in ${variable}, and this machine's TLS settings.`,
        other: variable === 'IDV_BASE_URL' ? 'Check IDV_BASE_URL and the network.' : 'Check the jwks_uri of the discovery document.',
      })[cause],
    jwksSigningKey: 'ID tokens cannot be verified: ask the provider.',
    jwksKids: 'A kid must name one key (spec 4.4); ask the provider.',
    jwksPublic: 'The service publishes private keys: stop and tell the provider. The app refuses such a JWKS.',
  } satisfies Wording<FixValues>,
};

export type DoctorMessages = typeof en;

const nb: DoctorMessages = {
  title: 'Diagnose',
  intro: [
    'Konfigurasjonen, tjenestens discovery-dokument og nøkkelsettet, kontrollert mot det grensesnittspesifikasjonen og denne klienten krever. ',
    ' skriver ut det samme. En rapport er høyst 15 sekunder gammel.',
  ],
  command: 'npm run doctor -- --lang nb',
  statuses: { pass: 'OK', warn: 'Advarsel', fail: 'Feil' },
  marks: { pass: 'OK', warn: 'ADVARSEL', fail: 'FEIL' },
  passed: (count) => `${count} OK`,
  others: (warnings, failures) => `, ${warnings} med advarsel, ${failures} med feil.`,
  checks: 'Kontroller',
  whatToDo: 'Tiltak:',
  publicJwks: 'Vår offentlige JWKS, som skal registreres hos tjenesten',
  publicJwksPrinted: 'Vår offentlige JWKS, som skal registreres hos tjenesten (bare offentlige nøkler):',
  cli: {
    asked: (app, findings) => `Appen på ${app}, slik den kjører: dens egne funn (${findings}, høyst 15 sekunder gamle).`,
    unreachable: (app, why) =>
      `Ingenting svarer på ${app} (${why}). Diagnosen spør den kjørende appen om dens egne funn: start appen med de samme variablene (npm run dev, eller npm start etter npm run build), eller si hvor den kjører: APP_URL=<adressen> npm run doctor, eller npm run doctor -- --url <adressen>.`,
    notFindings: (findings, status) => `${findings} svarte ${status} uten diagnosens funn: er dette appens adresse (APP_URL, eller --url)?`,
  },
  causes: CAUSES_NB,
  badge: {
    states: { ok: 'OK', degraded: 'Redusert', down: 'Utilgjengelig', checking: 'Kontrollerer …', configuration: 'Ikke konfigurert' },
    endpoints: { discovery: 'Discovery', jwks: 'Nøkkelsettet (JWKS)' },
    status: 'svarte med en feilstatus',
    notObject: 'svarte ikke med et JSON-objekt',
    stale: 'den siste gode kopien brukes',
    findings: (warnings, failures) =>
      [
        warnings > 0 ? `${warnings} ${warnings === 1 ? 'advarsel' : 'advarsler'}` : '',
        failures > 0 ? `${failures} ${failures === 1 ? 'kontroll' : 'kontroller'} med feil` : '',
      ]
        .filter(Boolean)
        .join(', ') + ' i diagnosen',
    configuration: 'konfigurasjonen kan ikke lastes',
    service: 'Tjeneste:',
    seeDoctor: 'Detaljer i diagnosen',
  },
  environment: {
    title: 'Variablene for staging',
    titleProvider: 'Variablene i denne konfigurasjonen',
    intro:
      'For å peke appen mot den virkelige tjenesten (staging) i stedet for den innebygde emulatoren: sett disse variablene og start den på nytt. Verdier i vinkelparenteser fyller du inn selv; resten vet appen. Private nøkler og hemmeligheter vises aldri her.',
    introProvider: 'Det appen kjører med, som variabler: verdier i vinkelparenteser er hemmelige og vises aldri her.',
    printed: 'Variablene for staging (verdier i vinkelparenteser fyller du inn selv):',
    copy: 'Kopier variablene',
    copied: 'Kopiert',
    notes: {
      IDV_BASE_URL: 'Tjenestens base-URL: utstederen, nøyaktig, uten skråstrek til slutt',
      IDV_CLIENT_ID: 'Klientidentifikatoren tjenesten ga deg',
      IDV_SIGNING_KEY: 'Våre private nøkler: npm run keys skriver ut et par, og den offentlige JWKS-en som skal registreres hos tjenesten',
      APP_URL: (redirectUri) => `Der appen nås; omdirigerings-URI-en som skal registreres hos tjenesten, er ${redirectUri}`,
      SESSION_SECRET: '32 eller flere tilfeldige tegn: openssl rand -base64 32',
      IDV_UI_LOCALES: 'Spesifikasjonen 2.2 nevner ikke ui_locales: en tjeneste som følger ordlyden, avviser det',
      IDV_FLOW_URL: 'Bare hvis discovery-dokumentet ikke har authorization_endpoint: basen for tjenestens /auth',
    },
    placeholders: {
      baseUrl: 'https://tjenestens base-URL',
      clientId: 'client_id',
      signingKey: 'privat signerings-JWK fra npm run keys',
      encryptionKey: 'privat krypterings-JWK fra npm run keys',
      sessionSecret: '32+ tilfeldige tegn',
      flowUrl: 'https://tjenestens flow-URL',
    },
  },

  titles: {
    configuration: 'Konfigurasjonen er gyldig',
    redirectUri: 'Omdirigerings-URI',
    signingKey: 'Vår signeringsnøkkel',
    encryptionKey: 'Vår krypteringsnøkkel',
    discovery: 'Discovery-dokument',
    issuer: 'Utstederen er lik IDV_BASE_URL',
    https: 'Endepunktene bruker https',
    par: 'Pushed authorization requests (PAR) kreves',
    idTokenSigning: 'ID-tokener signert med ES256',
    idTokenEncryption: 'ID-tokenkryptering vi godtar',
    uiLocales: 'ui_locales i forespørselsobjektet',
    clientAuthentication: 'Klientautentisering med private_key_jwt',
    clientAssertionAlg: (alg) => `Klientpåstander signert med ${alg} (vår nøkkels algoritme)`,
    requestObjectAlg: (alg) => `Forespørselsobjekter signert med ${alg} (vår nøkkels algoritme)`,
    trustFrameworks: 'Tillitsrammeverkene standard og standard_etsi',
    claims: 'Alle opplysningene velgeren tilbyr, som verifiserte opplysninger',
    evidence: 'Dokumentasjon fra identitetsdokument og register',
    responseIssuer: 'Utsteder i autorisasjonsresponsen (RFC 9207)',
    jwks: 'Nøkkelsett (JWKS)',
    jwksPublished: 'Signeringsnøkler er publisert',
    jwksSigningKey: 'En ES256-signeringsnøkkel med kid',
    jwksKids: 'Nøkkel-ID-ene er unike',
    jwksPublic: 'Bare offentlige nøkler',
  },

  details: {
    asWritten: (text) => text,
    mode: (mode, issuer, clientId) => `${mode}-modus, utsteder ${issuer}, klient ${clientId}`,
    redirectRegister: (uri) => `${uri} (registrer nøyaktig denne hos tjenesten)`,
    redirectInsecure: (uri) => `${uri} bruker ukryptert http på en offentlig vert`,
    key: (alg, kid) => `${alg}, kid ${kid}`,
    devKey: (alg, kid, variable) => `${alg}, kid ${kid}: en utviklingsnøkkel laget i datamappen, siden ${variable} ikke er satt`,
    redirectHttp: (uri, issuer) => `${uri} bruker ukryptert http, mens tjenesten ${issuer} bruker https`,
    fetchFailed: (problem, url) =>
      `${
        problem.kind === 'status'
          ? `${ENDPOINTS_NB[problem.endpoint]} svarte HTTP ${problem.status}`
          : problem.kind === 'not_object'
            ? `${ENDPOINTS_NB[problem.endpoint]} svarte ikke med et JSON-objekt`
            : `${problem.cause === 'other' ? '' : `${CAUSES_NB[problem.cause]}: `}${ENDPOINTS_NB[problem.endpoint]} feilet: ${problem.message}`
      } (${url})`,
    issuerMatches: (issuer) => `utsteder ${issuer}`,
    issuerDiffers: (named, issuer) => `dokumentet oppgir ${named}, ikke ${issuer}`,
    notHttps: (endpoints) => `ikke https: ${endpointList(endpoints)}`,
    endpoints: (endpoints, loopbackHttp, absent) =>
      `${endpointList(endpoints) || 'ingen endepunkter oppgitt'}${loopbackHttp ? ' (ukryptert http på en loopback-vert: bare for utvikling)' : ''}${
        absent.length > 0 ? `; ikke i dokumentet: ${absent.join(', ')} (stiene fra del 4 brukes i stedet)` : ''
      }`,
    parRequired: 'require_pushed_authorization_requests: true',
    parAbsent: 'require_pushed_authorization_requests er ikke i dokumentet (del 4 krever PAR; denne klienten bruker det alltid)',
    parNotRequired: (value) => `require_pushed_authorization_requests: ${value}, men del 4 krever PAR`,
    notListed: (member, needed) => `${member} er ikke i dokumentet, så støtte for ${needed.join(', ')} kan ikke bekreftes`,
    listed: (member, listed) => `${member}: ${listed.join(', ')}`,
    lacks: (member, missing, listed) => `${member} mangler ${missing.join(', ')} (oppført: ${listed.join(', ') || 'ingenting'})`,
    encryptionAdvertised: (algs, encs, accepted, ignored) =>
      `dokumentet oppgir alg ${algs.join(', ') || 'ingenting'} og enc ${encs.join(', ') || 'ingenting'}; vi godtar ${accepted.join(', ')}${ignored.length > 0 ? `; vi godtar aldri ${ignored.join(', ')}` : ''}`,
    encryptionNoneAccepted: (algs, encs) =>
      `dokumentet oppgir alg ${algs.join(', ') || 'ingenting'} og enc ${encs.join(', ') || 'ingenting'}: ingen kombinasjon av RSA-OAEP-256 eller RSA-OAEP med AES-GCM eller AES-CBC-HMAC, de eneste vi godtar`,
    encryptionNotAdvertised: (accepted) =>
      `id_token_encryption_alg_values_supported og _enc_values_supported er ikke i dokumentet; vi godtar spesifikasjonens eksempel, ${accepted.join(', ')}`,
    encryptionPinned: (pinned, unadvertised) =>
      `låst av IDV_ID_TOKEN_ENCRYPTION: ${pinned.join(', ')}${unadvertised.length > 0 ? `; dokumentet oppgir ikke ${unadvertised.join(', ')}` : ''}`,
    uiLocalesSent: (byDefault) =>
      `sendes (${byDefault ? 'standard mot den innebygde emulatoren' : 'IDV_UI_LOCALES=on'}): tjenestens sider kan følge appens språk`,
    uiLocalesNotSent: (byDefault) =>
      `sendes ikke (${byDefault ? 'standard' : 'IDV_UI_LOCALES=off'}): forespørselsobjektene har nøyaktig opplysningene i spesifikasjonen 2.2`,
    issuerParameter: 'authorization_response_iss_parameter_supported: true; appen krever da iss',
    issuerParameterAbsent: 'ikke oppgitt: appen kontrollerer iss bare når den blir sendt',
    noKeysArray: 'JWKS-en har ingen keys-liste',
    signingKeys: (keys, kids) => `${keys} ${keys === 1 ? 'nøkkel' : 'nøkler'}, ${kids.length} for ES256 (kid ${kids.join(', ')})`,
    noSigningKey: (keys) =>
      keys === 0
        ? 'keys-listen er tom'
        : keys === 1
          ? 'nøkkelen er ikke en EC P-256-signeringsnøkkel med kid'
          : `ingen av de ${keys} nøklene er en EC P-256-signeringsnøkkel med kid`,
    kidsUnique: (kids) => (kids === 1 ? '1 kid' : `${kids} kid-er, alle forskjellige`),
    kidsRepeated: (kids) => `gjentatt kid: ${kids.join(', ')}`,
    noPrivateKeys: 'ingen private nøkkeldata',
    privateKeys: (kids) => `private felt i kid ${kids.map((kid) => kid ?? '(ingen)').join(', ')}`,
  },

  fixes: {
    configuration: (variable) => `Rett opp ${variable} (se «Configuration» i docs/operations.md).`,
    redirectUri: 'Sett APP_URL til https-adressen appen nås på.',
    redirectHttp:
      'En tjeneste som følger FAPI 2.0, registrerer og omdirigerer bare til omdirigerings-URI-er med https: sett APP_URL til en https-adresse som når denne appen (en omvendt mellomtjener eller en tunnel med TLS), og registrer dens /auth/callback.',
    devKeyProvider: (variable) =>
      `Tjenesten stoler bare på nøklene som er registrert hos den: kjør npm run keys, sett ${variable} til den private nøkkelen den skriver ut (med paret), og registrer den offentlige JWKS-en den skriver ut, hos tjenesten.`,
    discovery: 'Kontroller IDV_BASE_URL og nettverket.',
    issuer: 'Sett IDV_BASE_URL til nøyaktig den utstederen dokumentet oppgir (uten skråstrek til slutt, med mindre utstederen har det).',
    httpsInsecure: 'Tjenesten må publisere https-endepunkter; appen avviser ukryptert http unntatt på en loopback-vert.',
    httpsAbsent: 'Ingenting å gjøre hvis stiene fra del 4 stemmer; be ellers leverandøren publisere endepunktene sine.',
    parAbsent: 'Ingenting å gjøre for denne klienten; leverandøren kan legge til feltet.',
    parNotRequired: 'Kontroller at IDV_BASE_URL peker på identitetstjenesten.',
    idTokenSigning: 'Appen verifiserer ID-tokener signert med ES256 (spesifikasjonen 2.6): spør leverandøren.',
    idTokenEncryptionNone:
      'Appen dekrypterer RSA-OAEP-256 eller RSA-OAEP med AES-GCM eller AES-CBC-HMAC (spesifikasjonen 2.5): be leverandøren kryptere ID-tokenene våre med en av dem.',
    idTokenEncryptionIgnored:
      'Sørg for at registreringen vår ber om en kombinasjon vi godtar (id_token_encrypted_response_alg og _enc), eller lås den med IDV_ID_TOKEN_ENCRYPTION.',
    idTokenEncryptionNotAdvertised:
      'Ingenting å gjøre hvis tjenesten bruker spesifikasjonens eksempel; sett ellers IDV_ID_TOKEN_ENCRYPTION til det den bruker (f.eks. RSA-OAEP/A128CBC-HS256).',
    idTokenEncryptionPinned: 'Kontroller IDV_ID_TOKEN_ENCRYPTION mot det tjenesten bruker: et token kryptert på en annen måte avvises.',
    uiLocalesProvider:
      'Spesifikasjonen 2.2 nevner ikke ui_locales, så en tjeneste som følger ordlyden avviser alle forespørsler: sett IDV_UI_LOCALES=off med mindre tjenesten er kjent for å godta det.',
    uiLocalesStrict:
      'Den strenge emulatoren (EMULATOR_STRICT) avviser ui_locales slik ordlyden i spesifikasjonen gjør: sett IDV_UI_LOCALES=off eller EMULATOR_STRICT=off.',
    clientAuthentication: 'Appen autentiserer seg bare med private_key_jwt (spesifikasjonen 5).',
    signingAlg: 'Bruk en signeringsnøkkel tjenesten godtar: npm run keys -- --alg ES256 (ES256 er spesifikasjonens).',
    trustFrameworks: 'Velgeren tilbyr det dokumentet lister opp; et tillitsrammeverk som mangler, kan ikke bes om.',
    claims: 'En opplysning tjenesten ikke støtter, kommer tilbake som «ikke levert».',
    evidence: 'Dokumentasjon tjenesten ikke støtter, kommer tilbake som «ikke levert».',
    responseIssuer: 'Ingenting å gjøre; beskyttelsen mot mix-up-angrep hviler da på state og utstederen i den pågående flyten.',
    jwksUri: 'Kontroller jwks_uri i discovery-dokumentet.',
    unreachable: (cause, variable, host) =>
      ({
        dns: `${host} finnes ikke i DNS fra denne maskinen: kontroller vertsnavnet i ${variable} og maskinens DNS (staging kan være tilgjengelig bare over VPN).`,
        refused: `Ingenting tar imot tilkoblinger på ${host}: kontroller porten i ${variable}, at tjenesten kjører, og at ingen brannmur avviser tilkoblingen.`,
        closed: `Noe på ${host} lukket tilkoblingen: kontroller porten i ${variable} (en annen server kan lytte der), og eventuelle mellomtjenere eller brannmurer imellom.`,
        timeout: `${host} svarte ikke innen 10 s: en brannmur kan kaste pakkene, eller en mellomtjener kan trengs (Nodes fetch leser ikke HTTPS_PROXY); eller tjenesten er overbelastet: prøv igjen.`,
        tls_untrusted: `Sertifikatet til ${host} er selvsignert eller fra en CA denne maskinen ikke stoler på: bruk tjenestens offentlige adresse, eller gi Node CA-en med NODE_EXTRA_CA_CERTS=/sti/til/ca.pem. Slå aldri av kontrollen (NODE_TLS_REJECT_UNAUTHORIZED=0).`,
        tls_expired: `Sertifikatet til ${host} er utløpt eller ikke gyldig ennå: kontroller klokken på denne maskinen; si ellers fra til leverandøren.`,
        tls_hostname: `Sertifikatet til ${host} gjelder andre verter: bruk i ${variable} et vertsnavn sertifikatet oppgir (ikke en IP-adresse eller et alias).`,
        tls_not_tls: `${host} svarer uten TLS: bruk http:// i ${variable} hvis den serverer ukryptert http (en lokal emulator); kontroller ellers porten.`,
        tls: `TLS-tilkoblingen til ${host} feilet: kontroller vert og port i ${variable} og maskinens TLS-innstillinger.`,
        other: variable === 'IDV_BASE_URL' ? 'Kontroller IDV_BASE_URL og nettverket.' : 'Kontroller jwks_uri i discovery-dokumentet.',
      })[cause],
    jwksSigningKey: 'ID-tokener kan ikke verifiseres: spør leverandøren.',
    jwksKids: 'En kid skal vise til bare én nøkkel (spesifikasjonen 4.4); spør leverandøren.',
    jwksPublic: 'Tjenesten publiserer private nøkler: stopp og si fra til leverandøren. Appen avviser en slik JWKS.',
  },
};

export const DOCTOR_MESSAGES: Record<Locale, DoctorMessages> = { en, nb };
