/**
 * The words of the authorization page, its error page and the desktop pages around them
 * (views/authorization-page.ts), in each language the emulator speaks (lib/i18n). Sentences with
 * markup in them are functions returning escaped `html`, so a translation keeps the sentence
 * whole. `nb` is typed by `en`, so tsc proves it complete.
 * @see views/messages.ts (the words all pages share)
 */
import type { Locale } from '../../i18n/locale';
import { html, type SafeHtml } from './html';

const en = {
  brand: 'ID Check',
  environment: 'Emulator',
  footer: 'IDV emulator: a simulation of the identity verification service and its mobile app. All people and documents are fictional.',
  eyebrow: 'Identity verification',

  title: (client: string) => `Verify your identity for ${client}`,
  heading: (client: string) => `${client} wants to verify your identity`,
  clientLine: (clientId: SafeHtml, returnHost: string) => html`Client ${clientId}; you will return to ${returnHost}.`,

  handoffHeading: 'Continue in the ID Check app',
  qrLabel: 'QR code that opens the ID Check app on your phone',
  qrCaption: 'Scan with your phone’s camera',
  how: [
    'Scan the QR code with your phone’s camera.',
    'Your phone shows a code: type it below, so that only your phone can continue.',
    'In the app, scan your document, read its chip and check your face.',
    "Come back here: this page continues by itself, or choose “I've finished on my phone”.",
  ],
  finishedOnPhone: "I've finished on my phone",
  phoneLink: 'Phone link:',
  phoneReach: (origin: SafeHtml) => html`Your phone must be on the same network as this computer and able to reach ${origin}.`,
  showLink: 'Show the link',
  hideLink: 'Hide the link',
  linkHidden: 'The link is not shown, so that a shared screen shows only the QR code.',

  /** confirming the phone by the code it shows (identity-app/phone-confirmation.ts) */
  codeLabel: 'Code shown on your phone',
  codeHint: 'Six letters, as your phone shows them; the dash is optional.',
  confirmPhone: 'Confirm phone',
  phoneConfirmed: 'Your phone is confirmed: only it can continue this verification.',
  typeTheCode: 'Type the code your phone shows.',
  noPhoneWaiting: 'No phone is waiting for a code yet. Scan the QR code with your phone first.',
  codeExpired: 'That code has expired: the phone waited too long. Tap Continue on the phone for a new code, and type that one.',
  wrongCode: (left: number) => `That is not a code a phone shows for this verification. ${left === 1 ? '1 try left' : `${left} tries left`}.`,
  handOffLocked: 'The hand-off to a phone is locked after too many wrong codes. Use the app on this device, or start again.',
  handOffLockedFor: (client: string) =>
    `The hand-off to a phone is locked: a wrong code was typed too many times. Use the app on this device, or start again from ${client}.`,
  or: 'or',
  noPhone: 'On a phone already, or no phone at hand?',
  useHere: 'Use the app on this device',

  /** the status line while waiting for the phone, and what the page's script shows */
  status: {
    waiting: 'Waiting for your phone…',
    /** a phone opened the link and waits for its code to be typed here */
    confirming: 'A phone opened the link: type the code it shows.',
    locked: 'The hand-off to a phone is locked.',
    inProgress: (step: number, steps: number, title: string) => `Your phone is at step ${step} of ${steps}: ${title.toLowerCase()}.`,
    /** on the page: the script has not continued (yet) */
    decided: "Finished on your phone. Choose “I've finished on my phone” to continue.",
    /** shown by the script as it follows the continue link */
    continuing: 'Finished on your phone. Continuing…',
    /** shown by the script when the status check fails; `{reason}` is the protocol's description */
    failed: 'This verification can no longer continue here: {reason}.',
    /** the reason when the status check's answer has none */
    unknownReason: 'error',
    /** the status check's answer once the verification was completed (another tab, the Back button) */
    completed: 'This verification has already been completed.',
    /** the status check's answer once the verification is unknown or has expired */
    gone: 'This verification no longer exists (it has expired). Start again from the application you came from.',
  },

  requested: 'Requested',
  trustFramework: (id: SafeHtml) => html`Trust framework ${id}`,
  identity: 'Identity',
  essential: 'essential',
  noClaims: 'No identity claims.',
  evidence: 'Evidence',
  documentEvidence: 'Identity document (passport or ID card)',
  registerEvidence: (source: string) => `Match in the population register (${source})`,
  lookedUpBy: (number: SafeHtml) => html`, looked up by national number ${number}`,

  quickHeading: 'Quick test without the app',
  quickLead: 'Decide in one step as a test persona, without the document, chip and face steps. Works without JavaScript.',
  quickLegend: 'Choose a test persona to scan a document and face as',
  approve: 'Verify and share',
  cancel: 'Cancel',

  /** the page again, with a problem */
  alreadyFinished: 'You already finished in the identity app on your phone. Choose "I\'ve finished on my phone" to continue.',
  chooseOutcome: 'Choose "Verify and share" or "Cancel".',
  choosePersona: 'Choose a persona.',
  unknownPersona: 'That persona does not exist; choose one from the list.',
  phoneNotFinished: 'The app on your phone has not finished yet. Finish there, then choose "I\'ve finished on my phone" again.',
  phoneNotOpened: 'The app has not been opened on a phone yet. Scan the QR code with your phone, or use the app on this device.',
  phoneNotConfirmed: 'A phone has opened the link, but it is not confirmed yet. Type the code it shows, then finish in the app.',

  /** the error page */
  errorTitle: 'Verification request failed',
  errorHeading: 'This verification request cannot be handled',
  errorCode: 'Error',
  /** a page reached again for a request that was used up (the browser's Back button after the result) */
  usedHeading: 'This verification has already been used',
  usedLead: (client: string) =>
    `You finished this verification already, or came back to it with your browser’s Back button. A request can be used only once: to verify again, start from ${client}.`,
  backToClient: (client: string) => `Back to ${client}`,
  errorAdvice: 'Go back to the application that sent you here and start the verification again.',

  /** the language switch's own error page (endpoints/language.ts) */
  languageErrorTitle: 'Language not changed',
  languageErrorHeading: 'The language could not be changed',
  back: 'Back',
  crossSiteOrigin: (origin: string, own: string) =>
    `This form post came from ${origin}, not from one of the emulator's own pages (${own}); it was refused as a possible cross-site request.`,
  crossSiteFetch: (site: string) =>
    `This form post was sent from another site (Sec-Fetch-Site: ${site}); only the emulator's own pages may change the language.`,
  unknownLanguage: (value: string | undefined, known: string) =>
    value === undefined ? `The form has no 'lang'; choose one of ${known}.` : `Unknown language ${value}; choose one of ${known}.`,
  badReturnPath: (value: string | undefined, base: string) =>
    value === undefined
      ? "The form has no 'return_to': the page to come back to."
      : `The return path ${value} is not a page of this emulator: it must be a path under ${base}/ on this site, not another site or //host.`,
  unreadableForm: (description: string) => `The form could not be read: ${description}.`,
};

export type AuthorizationMessages = typeof en;

const nb: AuthorizationMessages = {
  brand: 'ID Check',
  environment: 'Emulator',
  footer: 'IDV-emulator: en simulering av identitetsverifiseringstjenesten og mobilappen. Alle personer og dokumenter er fiktive.',
  eyebrow: 'Identitetsverifisering',

  title: (client) => `Verifiser identiteten din for ${client}`,
  heading: (client) => `${client} vil verifisere identiteten din`,
  clientLine: (clientId, returnHost) => html`Klient ${clientId}. Du kommer tilbake til ${returnHost}.`,

  handoffHeading: 'Fortsett i ID Check-appen',
  qrLabel: 'QR-kode som åpner ID Check-appen på telefonen din',
  qrCaption: 'Skann med kameraet på telefonen',
  how: [
    'Skann QR-koden med kameraet på telefonen.',
    'Telefonen viser en kode: skriv den inn nedenfor, slik at bare telefonen din kan fortsette.',
    'I appen skanner du dokumentet, leser brikken og tar ansiktskontrollen.',
    'Kom tilbake hit: siden fortsetter av seg selv, eller velg «Jeg er ferdig på telefonen».',
  ],
  finishedOnPhone: 'Jeg er ferdig på telefonen',
  phoneLink: 'Lenke for telefonen:',
  phoneReach: (origin) => html`Telefonen må være på samme nettverk som denne datamaskinen og kunne nå ${origin}.`,
  showLink: 'Vis lenken',
  hideLink: 'Skjul lenken',
  linkHidden: 'Lenken vises ikke, slik at en delt skjerm bare viser QR-koden.',

  codeLabel: 'Koden telefonen viser',
  codeHint: 'Seks bokstaver, slik telefonen viser dem. Bindestreken kan du sløyfe.',
  confirmPhone: 'Bekreft telefonen',
  phoneConfirmed: 'Telefonen din er bekreftet: bare den kan fortsette denne verifiseringen.',
  typeTheCode: 'Skriv inn koden telefonen viser.',
  noPhoneWaiting: 'Ingen telefon venter på en kode ennå. Skann QR-koden med telefonen først.',
  codeExpired: 'Den koden er utløpt: telefonen ventet for lenge. Trykk Fortsett på telefonen for en ny kode, og skriv inn den.',
  wrongCode: (left) => `Det er ikke en kode som en telefon viser for denne verifiseringen. ${left} forsøk igjen.`,
  handOffLocked: 'Overføringen til telefon er låst etter for mange feil koder. Bruk appen på denne enheten, eller start på nytt.',
  handOffLockedFor: (client) =>
    `Overføringen til telefon er låst: feil kode ble skrevet inn for mange ganger. Bruk appen på denne enheten, eller start på nytt fra ${client}.`,
  or: 'eller',
  noPhone: 'Er du allerede på telefonen, eller har du ingen telefon for hånden?',
  useHere: 'Bruk appen på denne enheten',

  status: {
    waiting: 'Venter på telefonen din …',
    confirming: 'En telefon har åpnet lenken: skriv inn koden den viser.',
    locked: 'Overføringen til telefon er låst.',
    inProgress: (step, steps, title) => `Telefonen din er på steg ${step} av ${steps}: ${title.toLowerCase()}.`,
    decided: 'Ferdig på telefonen. Velg «Jeg er ferdig på telefonen» for å fortsette.',
    continuing: 'Ferdig på telefonen. Fortsetter …',
    failed: 'Verifiseringen kan ikke lenger fortsette her. Start på nytt fra tjenesten du kom fra. (Teknisk beskrivelse: {reason})',
    unknownReason: 'feil',
    completed: 'Denne verifiseringen er allerede fullført.',
    gone: 'Denne verifiseringen finnes ikke lenger (den er utløpt). Start på nytt fra tjenesten du kom fra.',
  },

  requested: 'Forespurt',
  trustFramework: (id) => html`Tillitsrammeverk ${id}`,
  identity: 'Identitet',
  essential: 'påkrevd',
  noClaims: 'Ingen identitetsopplysninger.',
  evidence: 'Dokumentasjon',
  documentEvidence: 'Identitetsdokument (pass eller ID-kort)',
  registerEvidence: (source) => `Treff i folkeregisteret (${source})`,
  lookedUpBy: (number) => html`, slått opp på fødselsnummer ${number}`,

  quickHeading: 'Rask test uten appen',
  quickLead: 'Bestem i ett steg som en testpersona, uten stegene for dokument, brikke og ansikt. Virker uten JavaScript.',
  quickLegend: 'Velg testpersonaen (en fiktiv person) hvis dokument og ansikt skal skannes',
  approve: 'Verifiser og del',
  cancel: 'Avbryt',

  alreadyFinished: 'Du er allerede ferdig i identitetsappen på telefonen. Velg «Jeg er ferdig på telefonen» for å fortsette.',
  chooseOutcome: 'Velg «Verifiser og del» eller «Avbryt».',
  choosePersona: 'Velg en persona.',
  unknownPersona: 'Den personaen finnes ikke. Velg en fra listen.',
  phoneNotFinished: 'Appen på telefonen er ikke ferdig ennå. Fullfør der, og velg så «Jeg er ferdig på telefonen» igjen.',
  phoneNotOpened: 'Appen er ikke åpnet på en telefon ennå. Skann QR-koden med telefonen, eller bruk appen på denne enheten.',
  phoneNotConfirmed: 'En telefon har åpnet lenken, men den er ikke bekreftet ennå. Skriv inn koden den viser, og fullfør så i appen.',

  errorTitle: 'Forespørselen om verifisering mislyktes',
  errorHeading: 'Forespørselen om verifisering kan ikke behandles',
  errorCode: 'Feil',
  usedHeading: 'Denne verifiseringen er allerede brukt',
  usedLead: (client) =>
    `Du har allerede fullført denne verifiseringen, eller kom tilbake til den med nettleserens Tilbake-knapp. En forespørsel kan bare brukes én gang: for å verifisere på nytt, start fra ${client}.`,
  backToClient: (client) => `Tilbake til ${client}`,
  errorAdvice: 'Gå tilbake til tjenesten som sendte deg hit, og start verifiseringen på nytt.',

  languageErrorTitle: 'Språket ble ikke endret',
  languageErrorHeading: 'Språket kunne ikke endres',
  back: 'Tilbake',
  crossSiteOrigin: (origin, own) =>
    `Skjemaet ble sendt fra ${origin}, ikke fra en av emulatorens egne sider (${own}). Det ble avvist fordi det kan være en forespørsel fra et annet nettsted.`,
  crossSiteFetch: (site) => `Skjemaet ble sendt fra et annet nettsted (Sec-Fetch-Site: ${site}). Bare emulatorens egne sider kan endre språket.`,
  unknownLanguage: (value, known) => (value === undefined ? `Skjemaet mangler 'lang'. Velg ett av ${known}.` : `Ukjent språk ${value}. Velg ett av ${known}.`),
  badReturnPath: (value, base) =>
    value === undefined
      ? "Skjemaet mangler 'return_to', siden du skal tilbake til."
      : `Returstien ${value} er ikke en side i denne emulatoren: den må være en sti under ${base}/ på dette nettstedet, ikke et annet nettsted eller //vert.`,
  unreadableForm: (description) => `Skjemaet kunne ikke leses (teknisk beskrivelse: ${description}).`,
};

export const AUTHORIZATION_MESSAGES: Record<Locale, AuthorizationMessages> = { en, nb };
