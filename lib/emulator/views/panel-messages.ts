/**
 * The words of the QA panel (views/panel-page.ts) and of its actions' answers (endpoints/panel.ts),
 * in each language the emulator speaks (lib/i18n). Protocol names (`client_id`, `kid`, error codes,
 * fault ids) stay as they are. `nb` is typed by `en`, so tsc proves it complete.
 * @see views/messages.ts (the words all pages share)
 */
import { formatDateTime } from '../../i18n/format';
import type { Locale } from '../../i18n/locale';
import {
  EXPIRED_SECONDS_AGO,
  FAULTY_AUDIENCE,
  FAULTY_ISSUER,
  ISSUED_SECONDS_AHEAD,
  JWKS_TIMEOUT_DELAY_MS,
  NOT_AN_IMAGE_PICTURE,
  SKEWED_SECONDS_AHEAD,
  TOKEN_TIMEOUT_DELAY_MS,
} from '../answer-faults';
import { FAULTS, JWKS_OUTAGE_WINDOW_SECONDS, JWKS_VARIANT_WINDOW_SECONDS, type AcceptanceCheck, type FaultId, type FaultTarget } from '../qa/faults';
import { html, type SafeHtml } from './html';

/** A fault as the panel names and explains it. */
export interface FaultText {
  label: string;
  effect: string;
}

/** The English fault texts are qa/faults.ts's own table. */
const englishFaults = Object.fromEntries(FAULTS.map((fault) => [fault.id, { label: fault.label, effect: fault.effect }])) as Record<FaultId, FaultText>;

type EncryptionVariant = Extract<(typeof FAULTS)[number], { encryption: object }>;

/** The Norwegian texts of the encryption variants, made from the table as the English ones are. */
const norwegianEncryptionVariants = Object.fromEntries(
  FAULTS.flatMap((fault) => ('encryption' in fault ? [fault] : [])).map(({ id, encryption: { alg, enc } }) => [
    id,
    {
      label: `Kryptert med ${alg} / ${enc}`,
      effect: `Kryptert til klientens nøkkel med ${alg} og ${enc} for dette tokenet, uansett klientens variant (spec 2.5 viser RSA-OAEP-256 / A256GCM bare som eksempel).`,
    },
  ]),
) as Record<EncryptionVariant['id'], FaultText>;

const en = {
  app: 'IDV emulator',
  title: 'IDV emulator: QA panel',
  heading: 'QA panel',
  lead: "Controls for this emulator. Its state lives in the store the app gives it: this instance's memory (reset when the app restarts), or a store every instance shares.",
  sections: 'Sections',
  footer: 'IDV emulator: a simulation of the identity verification service, for development and QA. All people and documents are fictional.',
  /** a moment, as `<time>` shows it: "2026-01-31 12:00:00 UTC" */
  time: (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`,
  /** a time of day to the second, as `<time>` shows it: "12:00:30 UTC" */
  timeOfDay: (iso: string) => `${iso.slice(11, 19)} UTC`,

  service: 'Service',
  issuer: 'Issuer (base URL)',
  discovery: 'Discovery',
  authorization: 'Authorization',
  token: 'Token',
  onFlowUrl: '(on the flow URL, another origin; also served under the issuer)',
  discoveryDocument: 'Discovery document:',
  discoveryFull: 'full (every endpoint and the identity-assurance metadata).',
  minimal: 'minimal',
  discoveryMinimal:
    "the issuer and three required members, no endpoint: a relying party must take PAR, token and JWKS from part 4's paths and the authorization endpoint from its flow URL.",
  serveMinimal: 'Serve the minimal document',
  serveFull: 'Serve the full document',
  level: 'Level:',
  strict: 'strict',
  defaultLevel: 'default',
  strictOn:
    'as the letter of the spec: anything it does not list or shape is refused (request object claims, PAR, token and authorization parameters beyond its tables, a claim requested as null, exp in fractions of a second), and an ID token never has an empty document_details.',
  strictOff: 'what the RFCs allow around the spec is accepted (claims and parameters beyond its tables are ignored, a claim may be requested as null).',
  useStrictLevel: 'Use the strict level',
  useDefaultLevel: 'Use the default level',
  redirectIssHeading: 'iss on the redirect:',
  redirectIssOn: 'sent with every redirect back to the client (RFC 9207), and advertised in discovery.',
  off: 'off',
  redirectIssOff: 'the redirect back carries no iss, and discovery does not advertise authorization_response_iss_parameter_supported.',
  stopRedirectIss: 'Stop sending iss',
  startRedirectIss: 'Send iss',

  readOnly: 'Read-only.',
  signInHeading: 'Sign in to use the panel',
  signInLead: 'Rotating keys, arming faults and changing entitlements change what every user of this emulator gets, so they ask for the panel password.',
  password: 'Panel password',
  signIn: 'Sign in',
  signedIn: 'Signed in to the panel’s actions.',
  signOut: 'Sign out',

  clients: 'Registered clients',
  clientsLead: html`Population-register evidence (<code>electronic_record</code>) is enabled per client (spec 2.3); a client without it gets <code>403 unauthorized_client</code> from PAR. ID tokens are encrypted to each client's RSA key with its own variant (spec 2.5 shows <code>RSA-OAEP-256</code> / <code>A256GCM</code> as the example). A change holds for 30 days (or until the app restarts, when its state is in memory).`,
  name: 'Name',
  redirectUris: 'Redirect URIs',
  keys: 'Keys',
  populationRegister: 'Population register',
  idTokenEncryption: 'ID token encryption',
  setEncryption: 'Use',
  setEncryptionFor: (clientId: string) => `Use this ID token encryption for ${clientId}`,
  none: 'none',
  encryption: '(encryption)',
  enabled: 'Enabled',
  disabled: 'Disabled',
  enable: 'Enable',
  disable: 'Disable',
  toggleRegister: (enabled: boolean, clientId: string) => `${enabled ? 'Disable' : 'Enable'} population register for ${clientId}`,

  signingKeys: 'Signing keys',
  signingKeysLead: html`ES256 keys in the JWKS, each with a certificate from this instance's root CA; <code>kid</code> is the certificate serial number (spec 2.7). The next key is published ahead of its use, as real providers do; rotation makes it current at once and publishes a new next key, and the old one stays published for an hour, until the last ID token it signed has expired. The JWKS lists the keys in a new order each time (spec 4.4: never rely on order or count).`,
  created: 'Created',
  status: 'Status',
  current: 'Current',
  currentNote: 'signs new ID tokens',
  next: 'Next',
  nextNote: 'published ahead; signs after the next rotation',
  retiring: 'Retiring',
  retiringNote: 'leaves the JWKS at',
  rotate: 'Rotate signing key',

  faults: 'Faults',
  faultsLead: html`<strong>One-shot.</strong> An armed fault spoils the next matching response of this emulator to the client you chose (or to whichever client comes next), and then disarms itself. Requests the emulator refuses anyway do not use it up. Several faults may be armed; faults that change the same part of a response (the signing key, the encryption, the status) apply one per response, in the order listed.`,
  armedNow: 'Armed now:',
  runLockHeld: (owner: SafeHtml, until: SafeHtml) =>
    html`A conformance run (owner ${owner}) holds this emulator until ${until}; its client-wide cases may touch other verifications meanwhile.`,
  targets: {
    id_token: { legend: 'ID token', when: 'the next ID token the token endpoint issues' },
    jwks: { legend: 'JWKS', when: `the JWKS responses of the ${JWKS_VARIANT_WINDOW_SECONDS} s after the next ID token is issued` },
    jwks_endpoint: {
      legend: 'JWKS endpoint',
      when: `the first JWKS request within ${JWKS_OUTAGE_WINDOW_SECONDS} s after the next ID token is issued, if the relying party makes one (with the key cached it makes none)`,
    },
    token_endpoint: { legend: 'Token endpoint', when: 'the next token request that would succeed' },
    par_endpoint: { legend: 'PAR endpoint', when: 'the next pushed authorization request that would succeed' },
    authorization_response: { legend: 'Redirect back to the client', when: 'the next redirect that carries a code' },
  } satisfies Record<FaultTarget, { legend: string; when: string }> as Record<FaultTarget, { legend: string; when: string }>,
  appliesTo: (legend: string, when: string) => `${legend}: applies to ${when}`,
  faultTexts: englishFaults,
  forClient: 'for',
  anyClient: 'any client',
  armed: 'Armed',
  armedFor: (scope: string) => ` for ${scope}`,
  armedBy: (owner: string) => `armed by ${owner}`,
  notArmed: 'Not armed',
  waitsForRedirectIss: 'While iss on the redirect is off, this fault waits: a redirect without iss is then what the relying party must accept.',
  shouldAnswer: (code: SafeHtml) => html`The relying party should answer ${code}.`,
  shouldAccept: {
    claims_read: 'The answer is unusual but valid: the relying party should accept it and read the claims.',
    portrait_not_shown: 'The answer is unusual but valid: the relying party should accept it, read the claims and show no portrait from this picture.',
  } satisfies Record<AcceptanceCheck, string> as Record<AcceptanceCheck, string>,
  arm: 'Arm',
  disarm: 'Disarm',
  recentlyInjected: 'Recently injected',
  injectedFor: (clientId: SafeHtml) => html`for client ${clientId}`,
  noneInjected: 'No fault has been injected yet.',
  injectedForFlow: 'chosen for that verification',
  /** armed for a verification whose relying party asked for a failed request again (control.answerFlowAgain) */
  injectedAgain: 'applied again: its request was asked for again',
  /** a JWKS outage taken with its ID token, whose JWKS request has not come (the relying party had the key cached) */
  notReached: 'not reached: no JWKS request followed its ID token',
  startHeading: 'Arm and start a verification',
  startLead: 'Arm the faults you tick (none: a clean verification) and go straight to the relying party to start a new verification there.',
  startFaults: 'Faults to arm',
  startAt: 'Start at',
  startButton: 'Arm and start a verification',
  backToApp: (name: string) => `Back to ${name}`,
  relyingParties: 'Relying parties:',
  conformanceKit: 'Conformance kit',
  conformanceLead:
    'The conformance kit answers one whole verification per case (58 cases: every fault above, every variant, a normal verification first and last) and decides each by itself. It is a command-line tool, run from a checkout of this project on your own machine or in CI; this server never runs a browser. Against this emulator:',
  conformanceMore: 'The kit’s README (conformance/README.md) lists its options, its container image and CI jobs.',

  personas: 'Personas',
  personasLead: 'The people the simulated identity app can verify as; all fictional.',
  portraitOf: (name: string) => `Portrait of ${name}`,

  /** the page for a refused action */
  errorTitle: 'IDV emulator: action refused',
  errorHeading: 'The panel could not do that',
  backToPanel: 'Back to the QA panel',

  /** why an action was refused */
  crossSiteOrigin: (origin: string, own: string) =>
    `This form post came from ${origin}, not from the panel's own origin ${own}; it was refused as a possible cross-site request.`,
  crossSiteFetch: (site: string) => `This form post was sent from another site (Sec-Fetch-Site: ${site}); only the panel itself may post here.`,
  /** a form body that could not be read: the protocol's description */
  unreadableForm: (description: string) => description,
  readOnlyPanel: (reason: string) => `The panel is read-only: ${reason}`,
  signInFirst: 'The panel’s actions ask for the panel password: sign in on the panel first (a sign-in ends after an hour without use).',
  noPassword: (open: boolean) => `This panel has no password to sign in with: its actions are ${open ? 'open to anyone who reaches it' : 'switched off'}.`,
  wrongPassword: 'That is not the panel password.',
  tooManySignIns: (seconds: number) => `Too many sign-in attempts from this address; try again in ${seconds} s.`,
  noAction: (known: string) => `The form has no 'action'; expected one of ${known}.`,
  unknownAction: (value: string, known: string) => `Unknown action ${value}; expected one of ${known}.`,
  badFault: (value: string | undefined, known: string) =>
    `${value === undefined ? "The form has no 'fault'" : `Unknown fault ${value}`}; expected one of ${known}.`,
  unknownFaultClient: (value: string) => `Unknown client ${value}; arm the fault for a registered client or for any.`,
  badShape: (value: string | undefined) => `'shape' must be 'full' or 'minimal', not ${value ?? 'absent'}.`,
  badSwitch: (name: string, value: string | undefined) => `'${name}' must be 'true' or 'false', not ${value ?? 'absent'}.`,
  badEncryption: (algs: string, encs: string) => `'alg' must be one of ${algs}, and 'enc' one of ${encs}.`,
  noClientId: "The form has no 'client_id'.",
  unknownClient: (value: string) => `No client ${value} is registered.`,
  badEnabled: (value: string | undefined) => `'enabled' must be 'true' or 'false', not ${value ?? 'absent'}.`,

  /** what an action did (the panel's confirmation after the redirect) */
  keysRotated: (kid: string) => `Signing key rotated: new ID tokens are signed with kid ${kid}.`,
  faultArmed: (label: string, id: string) => `Armed "${label}" (${id}): it applies once, to the next matching response.`,
  faultDisarmed: (label: string, id: string) => `Disarmed "${label}" (${id}).`,
  registerEnabled: (clientId: string) => `Population register enabled for ${clientId}.`,
  registerDisabled: (clientId: string) => `Population register disabled for ${clientId}.`,
  discoveryFullAgain: 'Discovery serves the full document again.',
  discoveryMinimalNow:
    'Discovery serves the minimal document: issuer only, no endpoints. A relying party that cached the full one sees the change within its cache lifetime (an hour).',
  strictNow: 'The strict level is on: requests are checked against the letter of the spec.',
  defaultLevelNow: 'The default level is on again: what the RFCs allow around the spec is accepted.',
  redirectIssNow: 'The redirect back carries iss again, and discovery advertises it.',
  noRedirectIssNow:
    'The redirect back carries no iss, and discovery no longer advertises it. A relying party that cached the document sees the change within its cache lifetime (an hour).',
  encryptionSet: (clientId: string, alg: string, enc: string) => `ID tokens to ${clientId} are now encrypted with ${alg} / ${enc}.`,
  signedInNotice: 'Signed in: the panel’s actions are yours until you sign out, or leave the panel unused for an hour (12 hours at most).',
  signedOutNotice: 'Signed out.',
};

export type PanelMessages = typeof en;

const nb: PanelMessages = {
  app: 'IDV-emulator',
  title: 'IDV-emulator: QA-panel',
  heading: 'QA-panel',
  lead: 'Kontroller for denne emulatoren. Tilstanden ligger i lageret appen gir den: minnet til denne instansen (nullstilles når appen starter på nytt), eller et lager som alle instansene deler.',
  sections: 'Seksjoner',
  footer: 'IDV-emulator: en simulering av identitetsverifiseringstjenesten, for utvikling og QA. Alle personer og dokumenter er fiktive.',
  time: (iso) => formatDateTime(iso, 'nb'),
  timeOfDay: (iso) => `kl. ${iso.slice(11, 19)} UTC`,

  service: 'Tjenesten',
  issuer: 'Utsteder (basis-URL)',
  discovery: 'Discovery',
  authorization: 'Autorisasjon',
  token: 'Token',
  onFlowUrl: '(på flyt-URL-en, en annen opprinnelse; også tilgjengelig under utstederen)',
  discoveryDocument: 'Discovery-dokument:',
  discoveryFull: 'fullt (alle endepunkter og metadataene for identitetssikring).',
  minimal: 'minimalt',
  discoveryMinimal:
    'utstederen og tre påkrevde felt, ingen endepunkter: en tjenesteyter må ta PAR, token og JWKS fra stiene i del 4 og autorisasjonsendepunktet fra flyt-URL-en sin.',
  serveMinimal: 'Bruk det minimale dokumentet',
  serveFull: 'Bruk det fulle dokumentet',
  level: 'Nivå:',
  strict: 'strengt',
  defaultLevel: 'standard',
  strictOn:
    'etter spesifikasjonens ordlyd: alt den ikke lister opp eller former, avvises (krav i forespørselsobjektet og parametere til PAR, token og autorisasjon utover tabellene, et krav som er forespurt som null, exp med brøkdeler av et sekund), og et ID-token har aldri en tom document_details.',
  strictOff: 'det RFC-ene tillater rundt spesifikasjonen, godtas (krav og parametere utover tabellene ignoreres, et krav kan forespørres som null).',
  useStrictLevel: 'Bruk det strenge nivået',
  useDefaultLevel: 'Bruk standardnivået',
  redirectIssHeading: 'iss i videresendingen:',
  redirectIssOn: 'sendes med hver videresending tilbake til klienten (RFC 9207), og annonseres i discovery.',
  off: 'av',
  redirectIssOff: 'videresendingen tilbake har ingen iss, og discovery annonserer ikke authorization_response_iss_parameter_supported.',
  stopRedirectIss: 'Slutt å sende iss',
  startRedirectIss: 'Begynn å sende iss',

  readOnly: 'Skrivebeskyttet.',
  signInHeading: 'Logg inn for å bruke panelet',
  signInLead: 'Å rotere nøkler, aktivere feil og endre tilganger påvirker alle som bruker denne emulatoren, så det krever panelpassordet.',
  password: 'Panelpassord',
  signIn: 'Logg inn',
  signedIn: 'Logget inn til panelets handlinger.',
  signOut: 'Logg ut',

  clients: 'Registrerte klienter',
  clientsLead: html`Dokumentasjon fra folkeregisteret (<code>electronic_record</code>) slås på per klient (spec 2.3). En klient uten tilgang får <code>403 unauthorized_client</code> fra PAR. ID-tokener krypteres til RSA-nøkkelen til hver klient med klientens egen variant (spec 2.5 viser <code>RSA-OAEP-256</code> / <code>A256GCM</code> som eksempel). En endring gjelder i 30 dager (eller til appen starter på nytt, når tilstanden ligger i minnet).`,
  name: 'Navn',
  redirectUris: 'Redirect-URI-er',
  keys: 'Nøkler',
  populationRegister: 'Folkeregisteret',
  idTokenEncryption: 'Kryptering av ID-token',
  setEncryption: 'Bruk',
  setEncryptionFor: (clientId) => `Bruk denne krypteringen av ID-token for ${clientId}`,
  none: 'ingen',
  encryption: '(kryptering)',
  enabled: 'På',
  disabled: 'Av',
  enable: 'Slå på',
  disable: 'Slå av',
  toggleRegister: (enabled, clientId) => `${enabled ? 'Slå av' : 'Slå på'} folkeregisteret for ${clientId}`,

  signingKeys: 'Signeringsnøkler',
  signingKeysLead: html`ES256-nøkler i JWKS, hver med et sertifikat fra rot-CA-en til denne instansen; <code>kid</code> er sertifikatets serienummer (spec 2.7). Neste nøkkel publiseres før den tas i bruk, slik ekte tilbydere gjør. Rotasjon gjør den gjeldende med én gang og publiserer en ny neste nøkkel, og den gamle forblir publisert i en time, til det siste ID-tokenet den signerte, er utløpt. JWKS lister nøklene i ny rekkefølge hver gang (spec 4.4: stol aldri på rekkefølge eller antall).`,
  created: 'Opprettet',
  status: 'Status',
  current: 'Gjeldende',
  currentNote: 'signerer nye ID-tokener',
  next: 'Neste',
  nextNote: 'publisert på forhånd; signerer etter neste rotasjon',
  retiring: 'Fases ut',
  retiringNote: 'forsvinner fra JWKS',
  rotate: 'Roter signeringsnøkkelen',

  faults: 'Feil',
  faultsLead: html`<strong>Gjelder én gang.</strong> En aktivert feil ødelegger neste svar av riktig type fra denne emulatoren til klienten du valgte (eller til den klienten som kommer først), og deaktiverer seg selv etterpå. Forespørsler som emulatoren avviser uansett, bruker den ikke opp. Flere feil kan være aktivert samtidig; feil som endrer samme del av et svar (signeringsnøkkelen, krypteringen, statusen), brukes én per svar, i rekkefølgen de står i.`,
  armedNow: 'Aktivert nå:',
  runLockHeld: (owner, until) =>
    html`En kjøring av samsvarstestingen (eier ${owner}) holder denne emulatoren til ${until}; tilfellene dens som gjelder hele klienten, kan berøre andre verifiseringer i mellomtiden.`,
  targets: {
    id_token: { legend: 'ID-token', when: 'neste ID-token som tokenendepunktet utsteder' },
    jwks: { legend: 'JWKS', when: `JWKS-svarene de første ${JWKS_VARIANT_WINDOW_SECONDS} s etter at neste ID-token er utstedt` },
    jwks_endpoint: {
      legend: 'JWKS-endepunktet',
      when: `den første JWKS-forespørselen innen ${JWKS_OUTAGE_WINDOW_SECONDS} s etter at neste ID-token er utstedt, hvis tjenesteyteren sender en (med nøkkelen i hurtigbuffer sender den ingen)`,
    },
    token_endpoint: { legend: 'Tokenendepunktet', when: 'neste tokenforespørsel som ellers ville lyktes' },
    par_endpoint: { legend: 'PAR-endepunktet', when: 'neste PAR-forespørsel som ellers ville lyktes' },
    authorization_response: { legend: 'Videresendingen tilbake til klienten', when: 'neste videresending som har med en kode' },
  },
  appliesTo: (legend, when) => `${legend}: gjelder ${when}`,
  faultTexts: {
    wrong_nonce: { label: 'Feil nonce', effect: 'ID-tokenet har en tilfeldig nonce i stedet for den fra forespørselsobjektet.' },
    wrong_issuer: { label: 'Feil utsteder', effect: `ID-tokenet oppgir en annen utsteder (${FAULTY_ISSUER}) i iss.` },
    wrong_audience: { label: 'Feil mottaker', effect: `ID-tokenet er adressert til en annen klient (aud = ${FAULTY_AUDIENCE}).` },
    expired: { label: 'Utløpt ID-token', effect: `exp ligger ${EXPIRED_SECONDS_AGO / 60} minutter tilbake i tid, og iat én tokenlevetid før det.` },
    issued_in_future: {
      label: 'Utstedt i fremtiden',
      effect: `iat ligger ${ISSUED_SECONDS_AHEAD / 60} minutter frem i tid (spec 4.5: det kan ikke iat), og exp én tokenlevetid etter det.`,
    },
    unknown_signing_key: {
      label: 'Signert med en upublisert nøkkel',
      effect: 'Signert med en ny nøkkel som ikke er i JWKS, under kid-en til den gjeldende nøkkelen.',
    },
    unknown_kid: { label: 'Ukjent kid', effect: 'Signert med en ny nøkkel som ikke er i JWKS, under en kid som JWKS ikke har.' },
    signed_ps256: {
      label: 'Signert med PS256',
      effect: 'Signert med PS256 (en ny RSA-nøkkel) under den gjeldende kid-en, i stedet for ES256 (spec 2.5).',
    },
    signed_es384: {
      label: 'Signert med ES384',
      effect: 'Signert med ES384 (en ny P-384-nøkkel) under den gjeldende kid-en, i stedet for ES256 (spec 2.5).',
    },
    unencrypted: { label: 'Ikke kryptert', effect: 'Tokenendepunktet returnerer det signerte ID-tokenet (JWS) uten JWE rundt.' },
    wrong_jwe_algorithm: {
      label: 'Feil krypteringsalgoritme',
      effect:
        'Kryptert til klientens nøkkel med RSA1_5 (nøkkeltransport med RSA PKCS #1 v1.5, som RFC 8725 §3.2 og FAPI 2.0 avviser) og A128CBC-HS256, i stedet for klientens variant.',
    },
    wrong_encryption_key: {
      label: 'Kryptert til en annen nøkkel',
      effect: 'Kryptert med klientens variant til en ny RSA-nøkkel som ikke er klientens, under kid-en til klientens krypteringsnøkkel.',
    },
    token_error: { label: 'Feil i tokenendepunktet', effect: 'Tokenendepunktet svarer 500 server_error i stedet for ID-tokenet.' },
    token_timeout: {
      label: 'Tidsavbrudd i tokenendepunktet',
      effect: `Tokenendepunktet holder tilbake svaret i ${TOKEN_TIMEOUT_DELAY_MS / 1000} s, lenger enn tjenesteyteren venter.`,
    },
    jwks_error: {
      label: 'Feil i JWKS-endepunktet',
      effect: `Den første JWKS-forespørselen innen ${JWKS_OUTAGE_WINDOW_SECONDS} s etter at dette ID-tokenet er utstedt, får svaret 500 server_error i stedet for nøklene. En tjenesteyter som har nøkkelen i hurtigbuffer, sender ingen, og feilen nås aldri.`,
    },
    jwks_timeout: {
      label: 'Tidsavbrudd i JWKS-endepunktet',
      effect: `Den første JWKS-forespørselen innen ${JWKS_OUTAGE_WINDOW_SECONDS} s etter at dette ID-tokenet er utstedt, holdes tilbake i ${JWKS_TIMEOUT_DELAY_MS / 1000} s, lenger enn tjenesteyteren venter. En tjenesteyter som har nøkkelen i hurtigbuffer, sender ingen, og feilen nås aldri.`,
    },
    par_server_error: { label: 'Serverfeil i PAR', effect: 'PAR-endepunktet svarer 500 server_error i stedet for en request_uri.' },
    par_temporarily_unavailable: {
      label: 'PAR midlertidig utilgjengelig',
      effect: 'PAR-endepunktet svarer 503 temporarily_unavailable med Retry-After.',
    },
    wrong_state: { label: 'Feil state', effect: 'Videresendingen tilbake har en annen state enn forespørselsobjektet (RFC 6749 §4.1.2).' },
    missing_state: { label: 'Ingen state', effect: 'Videresendingen tilbake har ingen state.' },
    wrong_response_issuer: {
      label: 'Feil iss i videresendingen',
      effect: `Videresendingen tilbake oppgir en annen utsteder (${FAULTY_ISSUER}) i iss (RFC 9207).`,
    },
    missing_response_issuer: {
      label: 'Ingen iss i videresendingen',
      effect: 'Videresendingen tilbake har ingen iss, selv om discovery annonserer authorization_response_iss_parameter_supported (RFC 9207 §2.4).',
    },
    missing_nonce: { label: 'Ingen nonce', effect: 'ID-tokenet har ingen nonce, selv om forespørselsobjektet sendte en.' },
    missing_issuer: { label: 'Ingen utsteder', effect: 'ID-tokenet har ingen iss.' },
    missing_expiry: {
      label: 'Ingen utløpstid',
      effect: 'ID-tokenet har ingen exp (spec 2.6 oppgir den; OpenID Connect Core 2: exp er påkrevd), så ingenting begrenser levetiden.',
    },
    missing_audience: { label: 'Ingen mottaker', effect: 'ID-tokenet har ingen aud.' },
    extra_audience: {
      label: 'Ekstra mottaker',
      effect: `aud er [client_id, "${FAULTY_AUDIENCE}"], med azp = client_id: en mottaker klienten ikke stoler på (OpenID Connect Core 3.1.3.7, punkt 3).`,
    },
    missing_subject: { label: 'Ingen subjekt', effect: 'ID-tokenet har ingen sub (OpenID Connect Core 2: sub er påkrevd).' },
    alg_none: { label: 'Usignert (alg none)', effect: 'Den indre JWT-en har alg «none» og tom signatur, og er kryptert som vanlig.' },
    hs256_public_key: {
      label: 'HS256 med den offentlige nøkkelen',
      effect: 'Signert med HS256 under den gjeldende kid-en, med den gjeldende nøkkelens offentlige nøkkel (SPKI-PEM) som HMAC-hemmelighet: nøkkelforveksling.',
    },
    jwe_tag_tampered: { label: 'Endret JWE-tag', effect: 'Kryptert som vanlig, deretter er én bit i JWE-ens autentiseringstag (siste del) snudd.' },
    token_invalid_grant: { label: 'invalid_grant fra tokenendepunktet', effect: 'Tokenendepunktet svarer 400 invalid_grant i stedet for ID-tokenet.' },
    token_invalid_client: { label: 'invalid_client fra tokenendepunktet', effect: 'Tokenendepunktet svarer 401 invalid_client i stedet for ID-tokenet.' },
    token_not_json: { label: 'Tokensvar som ikke er JSON', effect: 'Tokenendepunktet svarer 200 med en HTML-side i stedet for JSON.' },
    token_missing_id_token: { label: 'Tokensvar uten id_token', effect: 'Tokenendepunktet svarer 200 med JSON som har expires_in, men ingen id_token.' },
    par_invalid_request: { label: 'invalid_request fra PAR', effect: 'PAR-endepunktet svarer 400 invalid_request i stedet for en request_uri.' },
    par_invalid_client: { label: 'invalid_client fra PAR', effect: 'PAR-endepunktet svarer 401 invalid_client i stedet for en request_uri.' },
    key_rotated_unpublished: {
      label: 'Signert med en nøkkel som ikke var publisert',
      effect:
        'Signeringsnøklene roteres til en ny nøkkel som ikke var publisert på forhånd: den signerer dette tokenet og står i JWKS først fra nå, så en tjenesteyter som har JWKS i hurtigbuffer, må hente den på nytt for den ukjente kid-en (OpenID Connect Core 10.1.1).',
    },
    aud_array: { label: 'Mottaker som liste', effect: 'aud er en liste med ett element, client_id (RFC 7519 4.1.3 tillater begge former).' },
    clock_skew_within_tolerance: {
      label: 'Klokkeavvik innenfor toleransen',
      effect: `iat ligger ${SKEWED_SECONDS_AHEAD} s frem i tid (en leverandørklokke som går litt for fort), og exp er som vanlig.`,
    },
    unknown_verified_claims_members: {
      label: 'Ukjente felt i verified_claims',
      effect:
        'verified_claims, verification, hvert bevis, document_details og claims har felt som spesifikasjonen ikke nevner (OpenID Connect for Identity Assurance lar en leverandør legge dem til).',
    },
    minimal_token: {
      label: 'Minimalt ID-token',
      effect:
        'ID-tokenet har bare iss, sub, aud, exp, iat, nonce og verified_claims med tillitsrammeverket og én enkelt verifisert opplysning (given_name når tokenet ville hatt den, ellers den første): ingen auth_time, acr, amr eller bevis.',
    },
    picture_not_image: {
      label: 'Bilde som ikke er et bilde',
      effect: `picture er en ekstern URL (${NOT_AN_IMAGE_PICTURE}) i stedet for en base64-JPEG som data-URI; tjenesteyteren må godta tokenet og ikke vise noe portrett fra den. Venter på et token der picture ble bedt om.`,
    },
    ...norwegianEncryptionVariants,
    jwks_keys_shuffled: {
      label: 'JWKS-nøkler i annen rekkefølge',
      effect: `I ${JWKS_VARIANT_WINDOW_SECONDS} s etter at dette ID-tokenet er utstedt, lister JWKS nøkkelen som signerte det, sist og aldri først (spec 4.4: rekkefølgen skal man ikke stole på).`,
    },
    jwks_unparseable_extra_keys: {
      label: 'JWKS med ubrukelige ekstra nøkler',
      effect: `I ${JWKS_VARIANT_WINDOW_SECONDS} s etter at dette ID-tokenet er utstedt, lister JWKS også nøkler som ingen kan verifisere et ES256-token med: en ukjent kty, en RSA-nøkkel med use «enc» og en EC-nøkkel der x ikke er en koordinat.`,
    },
    no_expires_in: {
      label: 'Tokensvar uten expires_in',
      effect: 'Tokensvaret har id_token, men ingen expires_in (spec 2.5 viser det; RFC 6749 5.1 gjør det valgfritt).',
    },
  },
  forClient: 'for',
  anyClient: 'hvilken som helst klient',
  armed: 'Aktivert',
  armedFor: (scope) => ` for ${scope}`,
  armedBy: (owner) => `aktivert av ${owner}`,
  notArmed: 'Ikke aktivert',
  waitsForRedirectIss: 'Så lenge iss i videresendingen er av, venter denne feilen: en videresending uten iss er da det tjenesteyteren må godta.',
  shouldAnswer: (code) => html`Tjenesteyteren bør svare ${code}.`,
  shouldAccept: {
    claims_read: 'Svaret er uvanlig, men gyldig: tjenesteyteren bør godta det og lese opplysningene.',
    portrait_not_shown: 'Svaret er uvanlig, men gyldig: tjenesteyteren bør godta det, lese opplysningene og ikke vise noe portrett fra dette bildet.',
  },
  arm: 'Aktiver',
  disarm: 'Deaktiver',
  recentlyInjected: 'Nylig brukt',
  injectedFor: (clientId) => html`for klient ${clientId}`,
  noneInjected: 'Ingen feil er brukt ennå.',
  injectedForFlow: 'valgt for den verifiseringen',
  injectedAgain: 'brukt igjen: forespørselen ble sendt på nytt',
  notReached: 'ikke nådd: ingen JWKS-forespørsel fulgte ID-tokenet',
  startHeading: 'Aktiver og start en verifisering',
  startLead: 'Aktiver feilene du krysser av (ingen: en feilfri verifisering), og gå rett til tjenesten for å starte en ny verifisering der.',
  startFaults: 'Feil som skal aktiveres',
  startAt: 'Start hos',
  startButton: 'Aktiver og start en verifisering',
  backToApp: (name) => `Tilbake til ${name}`,
  relyingParties: 'Tjenester:',
  conformanceKit: 'Samsvarstesting',
  conformanceLead:
    'Samsvarstestingen svarer på én hel verifisering per tilfelle (58 tilfeller: hver feil over, hver variant, og en vanlig verifisering først og sist) og avgjør hvert av dem selv. Den er et kommandolinjeverktøy som kjøres fra en kopi av dette prosjektet på din egen maskin eller i CI; denne serveren starter aldri en nettleser. Mot denne emulatoren:',
  conformanceMore: 'README-filen til verktøyet (conformance/README.md) viser valgene, container-bildet og CI-jobbene.',

  personas: 'Personaer',
  personasLead: 'Personene (fiktive personer) som den simulerte identitetsappen kan verifisere som.',
  portraitOf: (name) => `Portrett av ${name}`,

  errorTitle: 'IDV-emulator: handlingen ble avvist',
  errorHeading: 'Panelet kunne ikke gjøre det',
  backToPanel: 'Tilbake til QA-panelet',

  crossSiteOrigin: (origin, own) =>
    `Skjemaet ble sendt fra ${origin}, ikke fra panelets egen opprinnelse ${own}. Det ble avvist fordi det kan være en forespørsel fra et annet nettsted.`,
  crossSiteFetch: (site) => `Skjemaet ble sendt fra et annet nettsted (Sec-Fetch-Site: ${site}). Bare panelet selv kan sende skjemaer hit.`,
  unreadableForm: (description) => `Skjemaet kunne ikke leses (teknisk beskrivelse: ${description}).`,
  readOnlyPanel: (reason) => `Panelet er skrivebeskyttet: ${reason}`,
  signInFirst: 'Panelets handlinger krever panelpassordet: logg inn på panelet først (en innlogging avsluttes etter en time uten bruk).',
  noPassword: (open) => `Dette panelet har ikke noe passord å logge inn med: handlingene er ${open ? 'åpne for alle som når panelet' : 'slått av'}.`,
  wrongPassword: 'Det er ikke panelpassordet.',
  tooManySignIns: (seconds) => `For mange innloggingsforsøk fra denne adressen. Prøv igjen om ${seconds} s.`,
  noAction: (known) => `Skjemaet mangler 'action'. Forventet ett av ${known}.`,
  unknownAction: (value, known) => `Ukjent handling ${value}. Forventet ett av ${known}.`,
  badFault: (value, known) => `${value === undefined ? "Skjemaet mangler 'fault'" : `Ukjent feil ${value}`}. Forventet ett av ${known}.`,
  unknownFaultClient: (value) => `Ukjent klient ${value}. Aktiver feilen for en registrert klient eller for hvilken som helst.`,
  badShape: (value) => `'shape' må være 'full' eller 'minimal', ikke ${value ?? 'tom'}.`,
  badSwitch: (name, value) => `'${name}' må være 'true' eller 'false', ikke ${value ?? 'tom'}.`,
  badEncryption: (algs, encs) => `'alg' må være én av ${algs}, og 'enc' én av ${encs}.`,
  noClientId: "Skjemaet mangler 'client_id'.",
  unknownClient: (value) => `Ingen klient ${value} er registrert.`,
  badEnabled: (value) => `'enabled' må være 'true' eller 'false', ikke ${value ?? 'tom'}.`,

  keysRotated: (kid) => `Signeringsnøkkelen er rotert: nye ID-tokener signeres med kid ${kid}.`,
  faultArmed: (label, id) => `Aktiverte «${label}» (${id}): den gjelder én gang, for neste svar av riktig type.`,
  faultDisarmed: (label, id) => `Deaktiverte «${label}» (${id}).`,
  registerEnabled: (clientId) => `Folkeregisteret er slått på for ${clientId}.`,
  registerDisabled: (clientId) => `Folkeregisteret er slått av for ${clientId}.`,
  discoveryFullAgain: 'Discovery bruker det fulle dokumentet igjen.',
  discoveryMinimalNow:
    'Discovery bruker det minimale dokumentet: bare utstederen, ingen endepunkter. En tjenesteyter som har mellomlagret det fulle, ser endringen innen mellomlagringstiden (en time).',
  strictNow: 'Det strenge nivået er på: forespørsler kontrolleres mot spesifikasjonens ordlyd.',
  defaultLevelNow: 'Standardnivået er på igjen: det RFC-ene tillater rundt spesifikasjonen, godtas.',
  redirectIssNow: 'Videresendingen tilbake har iss igjen, og discovery annonserer det.',
  noRedirectIssNow:
    'Videresendingen tilbake har ingen iss, og discovery annonserer det ikke lenger. En tjenesteyter som har mellomlagret dokumentet, ser endringen innen mellomlagringstiden (en time).',
  encryptionSet: (clientId, alg, enc) => `ID-tokener til ${clientId} krypteres nå med ${alg} / ${enc}.`,
  signedInNotice: 'Logget inn: panelets handlinger er dine til du logger ut, eller lar panelet være ubrukt i en time (høyst 12 timer).',
  signedOutNotice: 'Logget ut.',
};

export const PANEL_MESSAGES: Record<Locale, PanelMessages> = { en, nb };
