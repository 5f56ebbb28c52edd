/**
 * The words of the failure pages (lib/view/failure-explanations.ts, app/_components/failure-panel.tsx,
 * app/failure/page.tsx and app/not-found.tsx), in each
 * language (lib/i18n). Codes (`access_denied`), variables (IDV_BASE_URL), commands
 * (`npm run keys`) and the service's own words are never translated; only the words around them
 * are. A server catalog: the error boundaries, client components, have their own
 * (boundary-messages.ts), so that these words never travel to the browser.
 *
 * Every code a failure can carry (lib/verification/failures.ts) has an entry in each language:
 * tsc proves it.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { FailureCode } from '@/lib/verification/failures';

export type { FailureCode } from '@/lib/verification/failures';

export interface Explanation {
  title: string;
  /** what happened, in one sentence */
  sentence: string;
  /** what to try next */
  next: string;
}

const retry = 'Start a new verification.';

/** The UI maps codes to text (the core only gives codes). Every code of the core and the app has an entry. */
const codes: Record<FailureCode, Explanation> = {
  access_denied: {
    title: 'The service refused the verification',
    sentence:
      'The identity service answered access_denied: the person cancelled in the identity app, or the app refused the verification (a document or face check that failed, say). Its own words are above.',
    next: 'Start again and complete the steps in the app.',
  },
  invalid_request: {
    title: 'Request refused',
    sentence: 'The service found a missing or invalid parameter in our request.',
    next: 'Check the selection and the service’s description below; a QA request may have broken a rule on purpose.',
  },
  invalid_client: {
    title: 'Client authentication failed',
    sentence: 'The service did not accept our client assertion: unknown client, unregistered key, or a bad signature.',
    next: 'Check IDV_CLIENT_ID and that the public key from `npm run keys` is registered with the service.',
  },
  unauthorized_client: {
    title: 'Not allowed for this client',
    sentence: 'Our client is not entitled to what was requested (for example population-register evidence).',
    next: 'Remove that evidence from the request, or ask the provider to enable it for this client.',
  },
  invalid_scope: { title: 'Invalid scope', sentence: 'The service refused the requested scope.', next: 'The scope must be exactly “openid”.' },
  invalid_grant: {
    title: 'Code refused',
    sentence: 'The authorization code was unknown, expired, already used, or the PKCE verifier or redirect URI did not match.',
    next: retry,
  },
  unsupported_grant_type: {
    title: 'Grant type refused',
    sentence: 'The token endpoint does not accept the grant type we sent.',
    next: 'This is a client bug; please report it.',
  },
  unsupported_response_type: {
    title: 'Response type refused',
    sentence: 'The service does not support the response type requested.',
    next: 'This is a client bug; please report it.',
  },
  server_error: { title: 'The service failed', sentence: 'The identity service reported an internal error.', next: 'Try again in a moment.' },
  temporarily_unavailable: { title: 'Service unavailable', sentence: 'The identity service is temporarily unavailable.', next: 'Try again in a moment.' },
  invalid_request_uri: { title: 'Request expired', sentence: 'The pushed request was unknown, expired or already used.', next: retry },
  invalid_request_object: {
    title: 'Request object refused',
    sentence: 'The service did not accept our signed request object.',
    next: 'Check the signing key registration.',
  },
  login_required: { title: 'Login required', sentence: 'The service needs the person to authenticate.', next: retry },
  consent_required: { title: 'Consent required', sentence: 'The person did not give consent.', next: retry },
  interaction_required: { title: 'Interaction required', sentence: 'The service needs the person to interact.', next: retry },
  unknown_oauth_error: {
    title: 'Error from the service',
    sentence: 'The service returned an error code this app does not know.',
    next: 'See the service’s own words below.',
  },
  insecure_url: {
    title: 'Insecure address',
    sentence: 'An endpoint of the service is not https, so we did not call it.',
    next: 'Use an https IDV_BASE_URL; plain http is accepted only on localhost.',
  },
  network_error: {
    title: 'Service unreachable',
    sentence: 'We could not connect to the identity service.',
    next: 'Check IDV_BASE_URL and the network, then try again.',
  },
  timeout: { title: 'Service too slow', sentence: 'The identity service did not answer in time.', next: 'Try again in a moment.' },
  invalid_response: {
    title: 'Unexpected response',
    sentence: 'The service answered with something that does not follow the specification.',
    next: 'Try again; if it persists, report it to the provider.',
  },
  discovery_failed: {
    title: 'Discovery failed',
    sentence: 'The service’s discovery document could not be loaded or lacks an endpoint we need.',
    next: 'Check IDV_BASE_URL.',
  },
  discovery_issuer_mismatch: {
    title: 'Issuer mismatch',
    sentence: 'The discovery document names a different issuer than IDV_BASE_URL.',
    next: 'Set IDV_BASE_URL to exactly the issuer the service publishes.',
  },
  invalid_selection: { title: 'Invalid selection', sentence: 'The request you picked cannot be sent as it is.', next: 'Adjust the selection and start again.' },
  invalid_preference: { title: 'Unknown setting', sentence: 'The setting sent is not one this app knows.', next: 'Use the switches at the top of the page.' },
  invalid_client_key: {
    title: 'Unusable client key',
    sentence: 'Our own signing or encryption key cannot be used.',
    next: 'Generate keys with `npm run keys` and set IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY.',
  },
  client_assertion_rate_exceeded: {
    title: 'Signing key busy',
    sentence: 'Our EdDSA signing key signs at most one client assertion per second, and more verifications started at once than it can serve.',
    next: 'Try again in a minute; for more, use an ES256 or PS256 key (`npm run keys`).',
  },
  par_failed: { title: 'Pushed request failed', sentence: 'The PAR endpoint answered with an unexpected status.', next: 'Try again; see the details below.' },
  callback_issuer_mismatch: {
    title: 'Response from another issuer',
    sentence: 'The authorization response names a different issuer (a possible mix-up attack).',
    next: retry,
  },
  state_missing: { title: 'No state', sentence: 'The authorization response has no state, so it cannot be matched to a request of ours.', next: retry },
  state_mismatch: {
    title: 'Unknown response',
    sentence: 'The response does not belong to a verification started in this browser, or it was already used or expired.',
    next: retry,
  },
  code_missing: { title: 'No authorization code', sentence: 'The authorization response has neither a code nor an error.', next: retry },
  token_failed: {
    title: 'Token request failed',
    sentence: 'The token endpoint answered with an unexpected status.',
    next: 'Try again; see the details below.',
  },
  jwks_fetch_failed: { title: 'Signing keys unavailable', sentence: 'The service’s signing keys could not be loaded.', next: 'Try again in a moment.' },
  id_token_missing: { title: 'No ID token', sentence: 'The token response has no ID token.', next: retry },
  id_token_not_encrypted: {
    title: 'ID token not encrypted',
    sentence: 'The ID token arrived as a bare signed token; the service must encrypt it to our key.',
    next: 'Report it to the provider; we never accept unencrypted identity data.',
  },
  id_token_unsupported_encryption: {
    title: 'Wrong encryption',
    sentence: 'The ID token is not encrypted with RSA-OAEP-256 and A256GCM.',
    next: 'Report it to the provider.',
  },
  id_token_decryption_failed: {
    title: 'ID token cannot be decrypted',
    sentence: 'The ID token is not encrypted to our registered encryption key.',
    next: 'Check that the public key of IDV_ENCRYPTION_KEY is the one registered.',
  },
  id_token_malformed: { title: 'Malformed ID token', sentence: 'The ID token is not a well-formed token.', next: retry },
  id_token_unsupported_algorithm: {
    title: 'Wrong signature algorithm',
    sentence: 'The ID token is not signed with ES256 (for example alg “none”).',
    next: 'Report it to the provider.',
  },
  id_token_key_not_found: { title: 'Unknown signing key', sentence: 'The ID token is signed with a key the service does not publish.', next: retry },
  id_token_signature_invalid: { title: 'Invalid signature', sentence: 'The ID token’s signature does not verify with the service’s key.', next: retry },
  id_token_issuer_mismatch: { title: 'Wrong issuer', sentence: 'The ID token was issued by someone other than the service.', next: retry },
  id_token_audience_mismatch: { title: 'Wrong audience', sentence: 'The ID token was issued for another client.', next: retry },
  id_token_expired: { title: 'ID token expired', sentence: 'The ID token has expired.', next: 'Check this machine’s clock, then start again.' },
  id_token_issued_in_future: {
    title: 'ID token from the future',
    sentence: 'The ID token claims to be issued in the future.',
    next: 'Check this machine’s clock, then start again.',
  },
  id_token_nonce_mismatch: { title: 'Nonce mismatch', sentence: 'The ID token does not answer the request we sent (a possible replay).', next: retry },
  id_token_subject_missing: { title: 'No subject', sentence: 'The ID token has no subject identifier.', next: retry },
  forbidden_origin: {
    title: 'Blocked cross-site request',
    sentence: 'The request came from another site, so it was refused.',
    next: 'Start from this app’s own home page.',
  },
  rate_limited: {
    title: 'Too many verifications',
    sentence: 'Too many verifications were started from this address, or from everywhere at once, in the last minute.',
    next: 'Wait a minute, then start again.',
  },
  store_full: {
    title: 'Busy: try again shortly',
    sentence: 'This instance is holding as many verifications as its memory budget allows, so it did not start another; nothing in progress was lost.',
    next: 'Try again in half a minute. To hold more, run several instances on a shared Redis (REDIS_URL).',
  },
  store_unavailable: {
    title: 'State store unavailable',
    sentence: 'The shared store (Redis) that keeps verifications in progress did not answer.',
    next: 'Try again in a few seconds; if it persists, check that Redis at REDIS_URL is running.',
  },
  internal_error: { title: 'Something went wrong', sentence: 'The app failed unexpectedly; the details are in the server log.', next: retry },
};

const en = {
  /** each failure code's title, sentence and what to try next */
  codes,
  /** the failure page's title (app/failure/page.tsx) and the panel's eyebrow */
  failed: 'Verification failed',
  /** the eyebrow of a start refused before any work (lib/server/responses.ts) */
  notStarted: 'Verification not started',
  errorCode: 'Error code',
  /** before our own detail of a recorded failure */
  detail: 'Detail',
  /** when the service's endpoint failed: when the app asks it again (seconds after the failure) */
  /** A refusal's wait (`Retry-After`). */
  tryAgainIn: (seconds: number) => `Try again in ${seconds === 1 ? 'a second' : `${seconds} seconds`}.`,
  retryAfter: (seconds: number) =>
    `The app asks the service again ${seconds === 1 ? 'a second' : `${seconds} seconds`} after this failure; until then, verifications fail at once with this code, and stored keys or metadata are used where they still may be.`,
  whatToTry: 'What to try:',
  backToStart: 'Back to the start',
  /** the button that sends the failed request again: the same selection and policy (and, against the emulator, the same answer) */
  tryAgain: 'Try the same request again',
  /** after a redirect whose state matched none of this browser's verifications */
  requestUnknown:
    'The answer’s state matched none of this browser’s verifications, so the app cannot tell which request it answered, and cannot ask for it again. Choose the request again.',
  chooseAgain: 'Choose the request again',
  /** an OAuth error the service sent: its own error and error_description, as it sent them */
  serviceAnswered: 'The service answered',
  /** what a failure other than an ID token check compared */
  compared: (claim: string | undefined): string => (claim ? `What was compared: ${claim}` : 'What was compared'),
  expected: 'Expected',
  received: 'Received',
  absent: '(absent)',
  /** emulator mode: the failure came from what the emulator was told to do */
  fromFault: (count: number): string => (count === 1 ? 'Caused by a fault of the emulator' : 'Caused by faults of the emulator'),
  armedOnPanel: 'Armed on its QA panel.',
  chosenForFlow: 'Chosen for this verification on the emulator’s page.',
  appliedAgain: 'Applied again by “Try the same request again”, as to the verification that failed before.',
  chosenError: (error: string) => `The emulator answered this verification with ${error}, as chosen on its page.`,
  /** what to try when a fault of the emulator caused the failure, instead of the code's own advice */
  faultNext: {
    panel:
      'Nothing, if this is the refusal you were testing: the relying party refused the spoiled answer, as it should. “Try the same request again” meets the same fault again. To verify normally again, start from the start page, and disarm the fault on the emulator’s QA panel (a one-shot fault is disarmed already).',
    flow: 'Nothing, if this is the refusal you were testing: it was chosen for this verification only. “Try the same request again” meets it again; a verification started from the start page is answered normally.',
    again:
      'Nothing, if this is the refusal you were testing: “Try the same request again” meets it each time; a verification started from the start page is answered normally.',
  },
  noFault: 'No fault of the emulator was applied to this verification.',
  /** acceptance variants: valid answers a correct relying party accepts */
  variantsApplied: 'Also applied: answers a correct relying party accepts (if nothing above caused the failure, the relying party refused a valid answer)',
  /** a JWKS outage taken with the flow's ID token that no JWKS request met */
  notReached:
    'Armed for this verification, but never reached: no JWKS request followed its ID token, since the relying party had the signing key cached. It did not cause the failure.',
  notFound: {
    title: 'Page not found',
    sentence: 'There is nothing at this address.',
    home: 'Home',
  },
};

export type FailureMessages = typeof en;

const igjen = 'Start en ny verifisering.';

const nb: FailureMessages = {
  codes: {
    access_denied: {
      title: 'Tjenesten avviste verifiseringen',
      sentence:
        'Identitetstjenesten svarte access_denied: personen avbrøt i identitetsappen, eller appen avviste verifiseringen (for eksempel en dokument- eller ansiktskontroll som feilet). Tjenestens egne ord står ovenfor.',
      next: 'Start på nytt og fullfør stegene i appen.',
    },
    invalid_request: {
      title: 'Forespørselen ble avvist',
      sentence: 'Tjenesten fant en manglende eller ugyldig parameter i forespørselen vår.',
      next: 'Kontroller utvalget og tjenestens beskrivelse nedenfor; en QA-forespørsel kan ha brutt en regel med vilje.',
    },
    invalid_client: {
      title: 'Klientautentiseringen mislyktes',
      sentence: 'Tjenesten godtok ikke klientpåstanden vår: ukjent klient, uregistrert nøkkel eller ugyldig signatur.',
      next: 'Kontroller IDV_CLIENT_ID, og at den offentlige nøkkelen fra `npm run keys` er registrert hos tjenesten.',
    },
    unauthorized_client: {
      title: 'Ikke tillatt for denne klienten',
      sentence: 'Klienten vår har ikke tilgang til det som ble bedt om (for eksempel dokumentasjon fra folkeregisteret).',
      next: 'Fjern den dokumentasjonen fra forespørselen, eller be leverandøren åpne for den for denne klienten.',
    },
    invalid_scope: { title: 'Ugyldig scope', sentence: 'Tjenesten avviste scopet det ble bedt om.', next: 'Scopet må være nøyaktig «openid».' },
    invalid_grant: {
      title: 'Koden ble avvist',
      sentence: 'Autorisasjonskoden var ukjent, utløpt eller allerede brukt, eller PKCE-verifikatoren eller omdirigerings-URI-en stemte ikke.',
      next: igjen,
    },
    unsupported_grant_type: {
      title: 'Grant-typen ble avvist',
      sentence: 'Tokenendepunktet godtar ikke grant-typen vi sendte.',
      next: 'Dette er en feil i klienten; meld gjerne fra om den.',
    },
    unsupported_response_type: {
      title: 'Responstypen ble avvist',
      sentence: 'Tjenesten støtter ikke responstypen det ble bedt om.',
      next: 'Dette er en feil i klienten; meld gjerne fra om den.',
    },
    server_error: { title: 'Tjenesten feilet', sentence: 'Identitetstjenesten meldte om en intern feil.', next: 'Prøv igjen om litt.' },
    temporarily_unavailable: {
      title: 'Tjenesten er utilgjengelig',
      sentence: 'Identitetstjenesten er midlertidig utilgjengelig.',
      next: 'Prøv igjen om litt.',
    },
    invalid_request_uri: {
      title: 'Forespørselen er utløpt',
      sentence: 'Den forhåndsinnsendte forespørselen (PAR) var ukjent, utløpt eller allerede brukt.',
      next: igjen,
    },
    invalid_request_object: {
      title: 'Forespørselsobjektet ble avvist',
      sentence: 'Tjenesten godtok ikke det signerte forespørselsobjektet vårt.',
      next: 'Kontroller at signeringsnøkkelen er registrert riktig.',
    },
    login_required: { title: 'Innlogging kreves', sentence: 'Tjenesten trenger at personen autentiserer seg.', next: igjen },
    consent_required: { title: 'Samtykke kreves', sentence: 'Personen ga ikke samtykke.', next: igjen },
    interaction_required: { title: 'Brukerhandling kreves', sentence: 'Tjenesten trenger en handling fra personen.', next: igjen },
    unknown_oauth_error: {
      title: 'Feil fra tjenesten',
      sentence: 'Tjenesten returnerte en feilkode denne appen ikke kjenner.',
      next: 'Se tjenestens egen melding nedenfor.',
    },
    insecure_url: {
      title: 'Usikker adresse',
      sentence: 'Et endepunkt hos tjenesten bruker ikke https, så vi kalte det ikke.',
      next: 'Bruk en https-adresse i IDV_BASE_URL; ukryptert http godtas bare på localhost.',
    },
    network_error: {
      title: 'Tjenesten kan ikke nås',
      sentence: 'Vi fikk ikke kontakt med identitetstjenesten.',
      next: 'Kontroller IDV_BASE_URL og nettverket, og prøv igjen.',
    },
    timeout: { title: 'Tjenesten svarer for sakte', sentence: 'Identitetstjenesten svarte ikke i tide.', next: 'Prøv igjen om litt.' },
    invalid_response: {
      title: 'Uventet svar',
      sentence: 'Tjenesten svarte med noe som ikke følger spesifikasjonen.',
      next: 'Prøv igjen; meld fra til leverandøren hvis feilen vedvarer.',
    },
    discovery_failed: {
      title: 'Discovery mislyktes',
      sentence: 'Tjenestens discovery-dokument kunne ikke lastes, eller det mangler et endepunkt vi trenger.',
      next: 'Kontroller IDV_BASE_URL.',
    },
    discovery_issuer_mismatch: {
      title: 'Utstederen stemmer ikke',
      sentence: 'Discovery-dokumentet oppgir en annen utsteder enn IDV_BASE_URL.',
      next: 'Sett IDV_BASE_URL til nøyaktig den utstederen tjenesten publiserer.',
    },
    invalid_selection: {
      title: 'Ugyldig utvalg',
      sentence: 'Forespørselen du valgte, kan ikke sendes slik den er.',
      next: 'Juster utvalget og start på nytt.',
    },
    invalid_preference: {
      title: 'Ukjent innstilling',
      sentence: 'Denne appen kjenner ikke innstillingen som ble sendt.',
      next: 'Bruk bryterne øverst på siden.',
    },
    invalid_client_key: {
      title: 'Klientnøkkelen kan ikke brukes',
      sentence: 'Vår egen signeringsnøkkel eller krypteringsnøkkel kan ikke brukes.',
      next: 'Lag nøkler med `npm run keys`, og sett IDV_SIGNING_KEY og IDV_ENCRYPTION_KEY.',
    },
    client_assertion_rate_exceeded: {
      title: 'Signeringsnøkkelen er opptatt',
      sentence: 'EdDSA-nøkkelen vår signerer høyst én klientpåstand i sekundet, og flere verifiseringer startet samtidig enn den rekker.',
      next: 'Prøv igjen om et minutt; bruk en ES256- eller PS256-nøkkel (`npm run keys`) for flere.',
    },
    par_failed: { title: 'PAR-forespørselen mislyktes', sentence: 'PAR-endepunktet svarte med en uventet status.', next: 'Prøv igjen; se detaljene nedenfor.' },
    callback_issuer_mismatch: {
      title: 'Svar fra en annen utsteder',
      sentence: 'Autorisasjonsresponsen oppgir en annen utsteder (et mulig mix-up-angrep).',
      next: igjen,
    },
    state_missing: {
      title: 'Mangler state',
      sentence: 'Autorisasjonsresponsen har ingen state, så den kan ikke knyttes til en forespørsel fra oss.',
      next: igjen,
    },
    state_mismatch: {
      title: 'Ukjent svar',
      sentence: 'Svaret hører ikke til en verifisering som ble startet i denne nettleseren, eller det er allerede brukt eller utløpt.',
      next: igjen,
    },
    code_missing: { title: 'Mangler autorisasjonskode', sentence: 'Autorisasjonsresponsen har verken en kode eller en feil.', next: igjen },
    token_failed: {
      title: 'Tokenforespørselen mislyktes',
      sentence: 'Tokenendepunktet svarte med en uventet status.',
      next: 'Prøv igjen; se detaljene nedenfor.',
    },
    jwks_fetch_failed: {
      title: 'Signeringsnøklene er utilgjengelige',
      sentence: 'Tjenestens signeringsnøkler kunne ikke lastes.',
      next: 'Prøv igjen om litt.',
    },
    id_token_missing: { title: 'Mangler ID-token', sentence: 'Tokenresponsen har ikke noe ID-token.', next: igjen },
    id_token_not_encrypted: {
      title: 'ID-tokenet er ikke kryptert',
      sentence: 'ID-tokenet kom som et signert token uten kryptering; tjenesten må kryptere det til nøkkelen vår.',
      next: 'Meld fra til leverandøren; vi godtar aldri ukrypterte identitetsdata.',
    },
    id_token_unsupported_encryption: {
      title: 'Feil kryptering',
      sentence: 'ID-tokenet er ikke kryptert med RSA-OAEP-256 og A256GCM.',
      next: 'Meld fra til leverandøren.',
    },
    id_token_decryption_failed: {
      title: 'ID-tokenet kan ikke dekrypteres',
      sentence: 'ID-tokenet er ikke kryptert til den registrerte krypteringsnøkkelen vår.',
      next: 'Kontroller at den offentlige nøkkelen til IDV_ENCRYPTION_KEY er den som er registrert.',
    },
    id_token_malformed: { title: 'Ugyldig ID-token', sentence: 'ID-tokenet er ikke et gyldig token.', next: igjen },
    id_token_unsupported_algorithm: {
      title: 'Feil signaturalgoritme',
      sentence: 'ID-tokenet er ikke signert med ES256 (for eksempel alg «none»).',
      next: 'Meld fra til leverandøren.',
    },
    id_token_key_not_found: { title: 'Ukjent signeringsnøkkel', sentence: 'ID-tokenet er signert med en nøkkel tjenesten ikke publiserer.', next: igjen },
    id_token_signature_invalid: { title: 'Ugyldig signatur', sentence: 'Signaturen på ID-tokenet kan ikke verifiseres med tjenestens nøkkel.', next: igjen },
    id_token_issuer_mismatch: { title: 'Feil utsteder', sentence: 'ID-tokenet er utstedt av en annen enn tjenesten.', next: igjen },
    id_token_audience_mismatch: { title: 'Feil mottaker', sentence: 'ID-tokenet er utstedt til en annen klient.', next: igjen },
    id_token_expired: {
      title: 'ID-tokenet er utløpt',
      sentence: 'ID-tokenet er ikke lenger gyldig; det har utløpt.',
      next: 'Kontroller klokken på denne maskinen, og start på nytt.',
    },
    id_token_issued_in_future: {
      title: 'ID-token fra fremtiden',
      sentence: 'ID-tokenet oppgir at det er utstedt i fremtiden.',
      next: 'Kontroller klokken på denne maskinen, og start på nytt.',
    },
    id_token_nonce_mismatch: {
      title: 'Nonce stemmer ikke',
      sentence: 'ID-tokenet svarer ikke til forespørselen vi sendte (et mulig replay-angrep).',
      next: igjen,
    },
    id_token_subject_missing: { title: 'Mangler subjekt', sentence: 'ID-tokenet har ingen subjektidentifikator.', next: igjen },
    forbidden_origin: {
      title: 'Blokkert forespørsel fra et annet nettsted',
      sentence: 'Forespørselen kom fra et annet nettsted og ble derfor avvist.',
      next: 'Start fra appens egen forside.',
    },
    rate_limited: {
      title: 'For mange verifiseringer',
      sentence: 'For mange verifiseringer ble startet det siste minuttet, fra denne adressen eller fra alle til sammen.',
      next: 'Vent et minutt, og start på nytt.',
    },
    store_full: {
      title: 'Opptatt – prøv igjen snart',
      sentence: 'Denne instansen har så mange verifiseringer som minnebudsjettet tillater, så den startet ikke en ny; ingenting som pågår, gikk tapt.',
      next: 'Prøv igjen om et halvt minutt. For å ha plass til flere kan du kjøre flere instanser med en delt Redis (REDIS_URL).',
    },
    store_unavailable: {
      title: 'Tilstandslageret er utilgjengelig',
      sentence: 'Det delte lageret (Redis) som holder verifiseringer som pågår, svarte ikke.',
      next: 'Prøv igjen om noen sekunder. Hvis feilen vedvarer, kontroller at Redis på REDIS_URL kjører.',
    },
    internal_error: { title: 'Noe gikk galt', sentence: 'Appen feilet uventet; detaljene står i serverloggen.', next: igjen },
  },
  failed: 'Verifiseringen mislyktes',
  notStarted: 'Verifiseringen ble ikke startet',
  errorCode: 'Feilkode',
  detail: 'Detaljer',
  tryAgainIn: (seconds) => `Prøv igjen om ${seconds === 1 ? 'ett sekund' : `${seconds} sekunder`}.`,
  retryAfter: (seconds) =>
    `Appen spør tjenesten igjen ${seconds === 1 ? 'ett sekund' : `${seconds} sekunder`} etter denne feilen; inntil da feiler verifiseringer med en gang med denne koden, og lagrede nøkler eller metadata brukes der de fortsatt kan.`,
  whatToTry: 'Dette kan du prøve:',
  backToStart: 'Tilbake til start',
  tryAgain: 'Prøv den samme forespørselen igjen',
  requestUnknown:
    'State i svaret passet ikke med noen av denne nettleserens verifiseringer, så appen kan ikke vite hvilken forespørsel det svarte på, og kan ikke sende den igjen. Velg forespørselen på nytt.',
  chooseAgain: 'Velg forespørselen på nytt',
  serviceAnswered: 'Tjenesten svarte',
  compared: (claim) => (claim ? `Det som ble sammenlignet: ${claim}` : 'Det som ble sammenlignet'),
  expected: 'Forventet',
  received: 'Mottatt',
  absent: '(mangler)',
  fromFault: (count) => (count === 1 ? 'Skyldes en feil lagt inn i emulatoren' : 'Skyldes feil lagt inn i emulatoren'),
  armedOnPanel: 'Aktivert i QA-panelet.',
  chosenForFlow: 'Valgt for denne verifiseringen på emulatorens side.',
  appliedAgain: 'Brukt igjen av «Prøv den samme forespørselen igjen», slik som på verifiseringen som mislyktes før.',
  chosenError: (error) => `Emulatoren svarte denne verifiseringen med ${error}, slik det ble valgt på siden.`,
  faultNext: {
    panel:
      'Ingenting, hvis det er denne avvisningen du testet: tjenesteyteren avviste det ødelagte svaret, slik den skal. «Prøv den samme forespørselen igjen» møter den samme feilen igjen. For å verifisere normalt igjen, start fra startsiden, og deaktiver feilen i emulatorens QA-panel (en engangsfeil er allerede deaktivert).',
    flow: 'Ingenting, hvis det er denne avvisningen du testet: den ble valgt bare for denne verifiseringen. «Prøv den samme forespørselen igjen» møter den igjen; en verifisering startet fra startsiden besvares normalt.',
    again:
      'Ingenting, hvis det er denne avvisningen du testet: «Prøv den samme forespørselen igjen» møter den hver gang; en verifisering startet fra startsiden besvares normalt.',
  },
  noFault: 'Ingen feil fra emulatoren ble brukt på denne verifiseringen.',
  variantsApplied: 'Også brukt: svar en korrekt tjenesteyter godtar (hvis ingenting ovenfor forårsaket feilen, avviste tjenesteyteren et gyldig svar)',
  notReached:
    'Aktivert for denne verifiseringen, men aldri nådd: ingen JWKS-forespørsel fulgte ID-tokenet, fordi tjenesteyteren hadde signeringsnøkkelen i hurtigbuffer. Den forårsaket ikke feilen.',
  notFound: {
    title: 'Fant ikke siden',
    sentence: 'Det finnes ingenting på denne adressen.',
    home: 'Til forsiden',
  },
};

export const FAILURE_MESSAGES: Record<Locale, FailureMessages> = { en, nb };
