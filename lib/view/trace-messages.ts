/**
 * The words of the protocol trace (lib/view/trace-view.ts, app/_components/protocol-trace.tsx)
 * and of the result page's numbers switch (app/_components/numbers-switch.tsx), in each language
 * (lib/i18n). A client component's catalog: both languages travel to the browser, so it holds
 * the trace's own words only. What an exchange carries (JSON, HTTP methods, URLs, parameter,
 * claim and header names) is never translated; only the words around it are.
 *
 * A kept trace holds no words (lib/verification/trace.ts): it is worded when it is read
 * (`presentTrace`), so a change of language applies to a trace already kept, and so do its
 * copies and its download.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { TraceStep } from '@/lib/oidc/trace';

const en = {
  /** The title of each step of the flow. */
  steps: {
    discovery: 'Discovery',
    par: 'Pushed authorization request',
    authorization_redirect: 'Redirect to the identity app',
    callback: 'Callback',
    token: 'Token request',
    jwks: 'Signing keys (JWKS)',
    id_token: 'ID token decrypted and verified',
  } satisfies Record<TraceStep, string>,
  /** A step a cache answered (a comma, not brackets: a title may end in some already). */
  fromCache: (title: string) => `${title}, from cache`,
  /** Discovery, when the flow had to assume endpoints the discovery document does not name. */
  endpointsNotDiscovered: 'Endpoints: some not in the discovery document',
  /** The labels of an exchange's sections. */
  sections: {
    formParameters: 'Form parameters sent',
    requestObjectHeader: 'Request object: header',
    requestObjectPayload: 'Request object: payload',
    clientAssertionHeader: 'Client assertion: header',
    clientAssertionPayload: 'Client assertion: payload',
    responseBody: 'Response body',
    idTokenJweHeader: 'ID token: JWE header',
    queryParameters: 'Query parameters received',
    queryParametersSent: 'Query parameters sent',
    jweHeader: 'JWE header',
    signedIdTokenHeader: 'Signed ID token: header',
    signedIdTokenPayload: 'Signed ID token: payload',
    signingCertificate: 'Signing certificate (x5c[0])',
    detail: 'Detail',
  },
  /** A length, as a masked secret, a shortened portrait or certificate shows it. */
  characters: (count: number) => `${count} characters`,
  /** A form field that holds a signed JWT, decoded in the sections below. */
  signedJwtBelow: '(signed JWT, decoded below)',
  /** The ID token of a token response: its header is shown in a section of its own. */
  idTokenSummary: (jwe: boolean, length: number) => `(${jwe ? 'JWE' : 'token'}, ${length} characters; header below)`,
  notDecodable: '(not decodable)',
  /** JSON a peer sent nested too deeply to print. */
  notDisplayable: '(not displayable: nested too deeply)',
  heading: 'Protocol trace',
  intro: 'Every exchange in order. Codes, verifiers and signatures are partly masked; private keys are never shown.',
  copy: 'Copy',
  copied: 'Copied',
  copyAll: 'Copy the whole trace as JSON',
  copySection: (label: string) => `Copy ${label}`,
  download: 'Download JSON',
  nothingExchanged: 'Nothing was exchanged before the failure.',
  /** The status badge of an exchange that got no response, and of a step a cache answered. */
  statusFailed: 'failed',
  statusCache: 'cache',
  loading: 'Loading the detail…',
  withoutJavaScript: 'without JavaScript',
  wholeTraceAsJson: 'the whole trace as JSON',
  loadError: (problem: string) => `The detail could not be loaded (${problem}); reload the page to try again.`,
  /** The NumericDates of a payload, worded under it. */
  times: 'Times',
  /** The words around each check of the ID token (their labels and values come worded: lib/view/checks-view.ts). */
  check: { passed: 'passed', failed: 'failed', expected: 'Expected', received: 'Received', droppedMembers: 'Members dropped' },
  /** The result page's one switch for national identity and document numbers. */
  numbers: {
    presenter: 'Presenter mode: national identity and document numbers stay masked to their last four characters until it is turned off.',
    revealed: 'National identity and document numbers are shown in full: on the cards, in the trace and in its copies.',
    masked: 'National identity and document numbers are masked to their last four characters: on the cards, in the trace and in its copies.',
    mask: 'Mask the numbers',
    reveal: 'Show the numbers',
  },
};

export type TraceMessages = typeof en;

const nb: TraceMessages = {
  steps: {
    discovery: 'Discovery',
    par: 'Pushed authorization request (PAR)',
    authorization_redirect: 'Omdirigering til identitetsappen',
    callback: 'Tilbakekall (callback)',
    token: 'Tokenforespørsel',
    jwks: 'Signeringsnøkler (JWKS)',
    id_token: 'ID-token dekryptert og verifisert',
  },
  fromCache: (title) => `${title}, fra cache`,
  endpointsNotDiscovered: 'Endepunkter: noen står ikke i discovery-dokumentet',
  sections: {
    formParameters: 'Skjemaparametere sendt',
    requestObjectHeader: 'Forespørselsobjekt: header',
    requestObjectPayload: 'Forespørselsobjekt: payload (nyttelast)',
    clientAssertionHeader: 'Klientpåstand: header',
    clientAssertionPayload: 'Klientpåstand: payload (nyttelast)',
    responseBody: 'Svarinnhold',
    idTokenJweHeader: 'ID-token: JWE-header',
    queryParameters: 'Spørreparametere mottatt',
    queryParametersSent: 'Spørreparametere sendt',
    jweHeader: 'JWE-header',
    signedIdTokenHeader: 'Signert ID-token: header',
    signedIdTokenPayload: 'Signert ID-token: payload (nyttelast)',
    signingCertificate: 'Signeringssertifikat (x5c[0])',
    detail: 'Detaljer',
  },
  characters: (count) => `${count} tegn`,
  signedJwtBelow: '(signert JWT, dekodet nedenfor)',
  idTokenSummary: (jwe, length) => `(${jwe ? 'JWE' : 'token'}, ${length} tegn; header nedenfor)`,
  notDecodable: '(kan ikke dekodes)',
  notDisplayable: '(kan ikke vises: nøstet for dypt)',
  heading: 'Protokollspor',
  intro: 'Alle utvekslinger i rekkefølge. Koder, verifikatorer og signaturer er delvis maskert; private nøkler vises aldri.',
  copy: 'Kopier',
  copied: 'Kopiert',
  copyAll: 'Kopier hele sporet som JSON',
  copySection: (label) => `Kopier «${label}»`,
  download: 'Last ned JSON',
  nothingExchanged: 'Ingenting ble utvekslet før feilen.',
  statusFailed: 'feilet',
  statusCache: 'cache',
  loading: 'Laster detaljene…',
  withoutJavaScript: 'uten JavaScript',
  wholeTraceAsJson: 'hele sporet som JSON',
  loadError: (problem) => `Kunne ikke laste detaljene (${problem}); last inn siden på nytt for å prøve igjen.`,
  times: 'Tidspunkter',
  check: { passed: 'bestått', failed: 'feilet', expected: 'Forventet', received: 'Mottatt', droppedMembers: 'Utelatte medlemmer' },
  numbers: {
    presenter: 'Presentasjonsmodus: identitetsnumre og dokumentnumre forblir maskert til de fire siste tegnene til modusen slås av.',
    revealed: 'Identitetsnumre og dokumentnumre vises i sin helhet: på kortene, i protokollsporet og i kopiene av det.',
    masked: 'Identitetsnumre og dokumentnumre er maskert til de fire siste tegnene: på kortene, i protokollsporet og i kopiene av det.',
    mask: 'Masker numrene',
    reveal: 'Vis numrene',
  },
};

export const TRACE_MESSAGES: Record<Locale, TraceMessages> = { en, nb };
