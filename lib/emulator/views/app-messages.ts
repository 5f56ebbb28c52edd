/**
 * The words of the simulated identity app ("ID Check", the screens in views/identity-app/ and the
 * refusals of endpoints/identity-app.ts), in each language the emulator speaks (lib/i18n).
 * Sentences with markup in them are functions returning escaped `html`. `nb` is typed by `en`, so
 * tsc proves it complete.
 * @see views/messages.ts (the words all pages share)
 */
import type { Locale } from '../../i18n/locale';
import { APP_STEPS, type AppStepId } from '../identity-app/steps';
import { html, type SafeHtml } from './html';

/** The English step titles are identity-app/steps.ts's own (the status endpoint's JSON speaks English). */
const englishSteps = Object.fromEntries(APP_STEPS.map((step) => [step.id, step.title])) as Record<AppStepId, string>;

const en = {
  appName: 'ID Check',
  pageTitle: (title: string) => `${title} – ID Check`,
  steps: englishSteps,
  stepOf: (step: number, steps: number) => `Step ${step} of ${steps}`,
  backTo: (title: string) => `Back to ${title.toLowerCase()}`,
  cancelVerification: 'Cancel verification',
  footer: (client: string) => `Simulated identity app for ${client}. All people and documents are fictional.`,

  /** step 1 */
  clientAsks: (client: string) => `${client} wants to verify your identity`,
  chooseLead: 'These are test people: choose whose passport or ID card to scan.',

  /** the drawn document: printed labels, as on a data page */
  printed: {
    surname: 'Surname',
    givenNames: 'Given names',
    nationality: 'Nationality',
    sex: 'Sex',
    dateOfBirth: 'Date of birth',
    documentNumber: 'Document no.',
    dateOfIssue: 'Date of issue',
    dateOfExpiry: 'Date of expiry',
    authority: 'Authority',
    personalNumber: 'Personal no.',
    passport: 'Passport',
    idcard: 'Identity card',
  },
  documentPhoto: (name: string) => `Document photo of ${name}`,

  /** step 2 */
  scanLead: (passport: boolean) => `Place ${passport ? 'the photo page of the passport' : 'the ID card'} inside the frame, in good light.`,
  cameraView: 'Camera view (simulated)',
  scanDocument: 'Scan document',

  /** step 3 */
  scanned: (document: string) => `Document scanned: ${document}`,
  chipLead: (passport: boolean) =>
    `Hold the top of your phone flat against the ${passport ? 'passport' : 'ID card'} and keep still until the chip has been read.`,
  readChip: 'Read chip',
  chipRead: 'Chip read',
  chipReadLead: (passport: boolean) => `The chip of the ${passport ? 'passport' : 'ID card'} answered and its data matches the printed page.`,
  chipMatches: 'Chip data matches the printed data',
  activeAuthentication: (value: SafeHtml) => html`Active authentication: ${value}`,
  activeAuthenticationResult: { passed: 'passed', failed: 'failed' },
  notPerformed: 'not performed',
  issuerCheck: (value: SafeHtml) => html`Issuer check: ${value}`,
  onlyNorwegian: 'Only Norwegian documents can be checked with their issuer.',
  continue: 'Continue',

  /** step 4 */
  faceLead: 'Look straight at the camera and keep your face inside the oval.',
  cameraViewOf: (name: string) => `Camera view of ${name}`,
  startFaceCheck: 'Start face check',
  faceFailed: 'Face check failed',
  faceMismatch: 'The face does not match the portrait on the document, so your identity cannot be verified.',
  nothingShared: (client: string) => `Nothing will be shared. ${client} will be told that the face check failed.`,
  endVerification: 'End verification',
  facePassed: 'Face check passed',
  faceMatches: 'Your face matches the portrait on the document',

  /** step 5 */
  shareHeading: (client: string) => `Share with ${client}?`,
  shareLead: (client: string) => `${client} will receive these verified details. Nothing else is shared.`,
  identity: 'Identity',
  document: 'Document',
  evidence: 'Evidence',
  notAvailableLeftOut: 'Not available, left out',
  portraitOf: (name: string) => `Portrait of ${name}`,
  expired: ' (expired)',
  populationRegister: (source: string) => `Population register (${source})`,
  matchFor: (number: string) => `Match for ${number}`,
  trustFramework: (id: SafeHtml) => html`Trust framework ${id}.`,
  etsiRefusal: (client: string, framework: SafeHtml, issuerCheck: string) =>
    html`${client} asked for the ${framework} trust framework, which needs a valid issuer check; this document’s is ${issuerCheck}, so ${client} will receive a refusal.`,
  share: 'Share',
  cancel: 'Cancel',

  /** after the decision */
  done: 'Done',
  doneElsewhere: 'Done — return to your computer',
  continueTo: (client: string) => `Continue to ${client}`,
  receivesWhenYouContinue: (client: string) => `${client} receives your verified identity when you continue.`,
  learnsWhenYouContinue: (client: string) => `${client} learns that the verification ended when you continue.`,
  continueOnComputer: (client: string) => `Continue on the computer where you started: ${client} receives your verified identity there.`,
  nothingWasShared: (client: string) => `Nothing was shared. ${client} learns that the verification ended when you continue on the computer where you started.`,
  reason: (reason: string) => `Reason: ${reason}.`,
  closeApp: 'You can close the app.',
  completeTitle: 'Complete',
  complete: 'This verification is complete',
  completeLead: 'There is nothing more to do here. You can close the app.',

  /** before the computer confirms this phone (identity-app/phone-confirmation.ts) */
  confirmTitle: 'Confirm this phone',
  confirmHeading: 'Confirm this phone on your computer',
  confirmLead: 'Type this code on the computer where you started, in the field next to the QR code:',
  yourCode: 'Your code',
  confirmWhy: 'Only the phone whose code is typed there can continue, so nobody else who sees the QR code can take over your verification.',
  confirmThen: 'Then continue here.',
  notConfirmedYet: 'The computer has not confirmed this phone yet. Type the code there, then continue.',
  /** a phone that may not use the app */
  elsewhereTitle: 'Another device',
  elsewhereHeading: 'This verification is being completed on another device',
  elsewhereLead:
    'Another phone was confirmed on the computer where this verification started, so it cannot continue here. If this verification is yours, start again on that computer.',
  lockedTitle: 'Locked',
  lockedHeading: 'This verification can no longer continue on a phone',
  lockedLead: 'A wrong code was typed on the computer too many times. Continue on the computer where you started: use the app there, or start again.',

  /** refusals of endpoints/identity-app.ts, shown on the screen again */
  actionAndOutcome: 'Send either an action or an outcome, not both.',
  unknownOutcome: (value: string) => `Unknown outcome ${value}.`,
  everyStepFirst: 'Finish this step first: every step comes before sharing.',
  documentChanged: 'The document changed since this screen was shown; check what will be shared and try again.',
  chooseWhatToDo: 'Choose what to do.',
  unknownAction: (value: string) => `Unknown action ${value}.`,
  stepFirst: 'Finish this step first.',
  chooseDocument: 'Choose a document.',
  unknownPersona: 'That persona does not exist; choose one from the list.',
};

export type AppMessages = typeof en;

const nb: AppMessages = {
  appName: 'ID Check',
  pageTitle: (title) => `${title} – ID Check`,
  steps: {
    document: 'Velg dokumentet ditt',
    scan: 'Skann dokumentet ditt',
    chip: 'Les brikken',
    face: 'Kontroller ansiktet ditt',
    consent: 'Del identiteten din',
  },
  stepOf: (step, steps) => `Steg ${step} av ${steps}`,
  backTo: (title) => `Tilbake til forrige steg: ${title.toLowerCase()}`,
  cancelVerification: 'Avbryt verifiseringen',
  footer: (client) => `Simulert identitetsapp for ${client}. Alle personer og dokumenter er fiktive.`,

  clientAsks: (client) => `${client} vil verifisere identiteten din`,
  chooseLead: 'Dette er testpersoner: velg hvem sitt pass eller ID-kort du vil skanne.',

  printed: {
    surname: 'Etternavn',
    givenNames: 'Fornavn',
    nationality: 'Nasjonalitet',
    sex: 'Kjønn',
    dateOfBirth: 'Fødselsdato',
    documentNumber: 'Dokumentnr.',
    dateOfIssue: 'Utstedelsesdato',
    dateOfExpiry: 'Utløpsdato',
    authority: 'Myndighet',
    personalNumber: 'Personnr.',
    passport: 'Pass',
    idcard: 'ID-kort',
  },
  documentPhoto: (name) => `Dokumentfoto av ${name}`,

  scanLead: (passport) => `Legg ${passport ? 'bildesiden i passet' : 'ID-kortet'} innenfor rammen, i godt lys.`,
  cameraView: 'Kamerabilde (simulert)',
  scanDocument: 'Skann dokumentet',

  scanned: (document) => `Dokumentet er skannet: ${document}`,
  chipLead: (passport) => `Hold toppen av telefonen flatt mot ${passport ? 'passet' : 'ID-kortet'}, og hold den i ro til brikken er lest.`,
  readChip: 'Les brikken',
  chipRead: 'Brikken er lest',
  chipReadLead: (passport) => `Brikken i ${passport ? 'passet' : 'ID-kortet'} svarte, og dataene stemmer med den trykte siden.`,
  chipMatches: 'Dataene i brikken stemmer med de trykte dataene',
  activeAuthentication: (value) => html`Brikkeautentisering: ${value}`,
  activeAuthenticationResult: { passed: 'bestått', failed: 'ikke bestått' },
  notPerformed: 'ikke utført',
  issuerCheck: (value) => html`Utstederkontroll: ${value}`,
  onlyNorwegian: 'Bare norske dokumenter kan kontrolleres mot utstederen.',
  continue: 'Fortsett',

  faceLead: 'Se rett inn i kameraet, og hold ansiktet innenfor ovalen.',
  cameraViewOf: (name) => `Kamerabilde av ${name}`,
  startFaceCheck: 'Start ansiktskontrollen',
  faceFailed: 'Ansiktskontrollen mislyktes',
  faceMismatch: 'Ansiktet stemmer ikke med portrettet i dokumentet, så identiteten din kan ikke verifiseres.',
  nothingShared: (client) => `Ingenting blir delt. ${client} får beskjed om at ansiktskontrollen mislyktes.`,
  endVerification: 'Avslutt verifiseringen',
  facePassed: 'Ansiktskontrollen er bestått',
  faceMatches: 'Ansiktet ditt stemmer med portrettet i dokumentet',

  shareHeading: (client) => `Dele med ${client}?`,
  shareLead: (client) => `${client} får disse verifiserte opplysningene. Ingenting annet blir delt.`,
  identity: 'Identitet',
  document: 'Dokument',
  evidence: 'Dokumentasjon',
  notAvailableLeftOut: 'Ikke tilgjengelig, utelatt',
  portraitOf: (name) => `Portrett av ${name}`,
  expired: ' (utløpt)',
  populationRegister: (source) => `Folkeregister (${source})`,
  matchFor: (number) => `Treff på ${number}`,
  trustFramework: (id) => html`Tillitsrammeverk ${id}.`,
  etsiRefusal: (client, framework, issuerCheck) =>
    html`${client} ba om tillitsrammeverket ${framework}, som krever gyldig utstederkontroll. Utstederkontrollen for dette dokumentet er ${issuerCheck}, så ${client} får et avslag.`,
  share: 'Del',
  cancel: 'Avbryt',

  done: 'Ferdig',
  doneElsewhere: 'Ferdig – gå tilbake til datamaskinen',
  continueTo: (client) => `Fortsett til ${client}`,
  receivesWhenYouContinue: (client) => `${client} får den verifiserte identiteten din når du fortsetter.`,
  learnsWhenYouContinue: (client) => `Når du fortsetter, får ${client} vite at verifiseringen ble avsluttet.`,
  continueOnComputer: (client) => `Fortsett på datamaskinen der du startet: ${client} får den verifiserte identiteten din der.`,
  nothingWasShared: (client) => `Ingenting ble delt. Når du fortsetter på datamaskinen der du startet, får ${client} vite at verifiseringen ble avsluttet.`,
  reason: (reason) => `Årsak: ${reason}.`,
  closeApp: 'Du kan lukke appen.',
  completeTitle: 'Fullført',
  complete: 'Denne verifiseringen er fullført',
  completeLead: 'Det er ikke mer å gjøre her. Du kan lukke appen.',

  confirmTitle: 'Bekreft denne telefonen',
  confirmHeading: 'Bekreft denne telefonen på datamaskinen',
  confirmLead: 'Skriv inn denne koden på datamaskinen der du startet, i feltet ved siden av QR-koden:',
  yourCode: 'Koden din',
  confirmWhy: 'Bare telefonen som får koden sin skrevet inn der, kan fortsette. Da kan ingen andre som ser QR-koden, overta verifiseringen din.',
  confirmThen: 'Fortsett så her.',
  notConfirmedYet: 'Datamaskinen har ikke bekreftet denne telefonen ennå. Skriv inn koden der, og fortsett så.',
  elsewhereTitle: 'En annen enhet',
  elsewhereHeading: 'Denne verifiseringen fullføres på en annen enhet',
  elsewhereLead:
    'En annen telefon ble bekreftet på datamaskinen der verifiseringen startet, så den kan ikke fortsette her. Hvis verifiseringen er din, start på nytt på den datamaskinen.',
  lockedTitle: 'Låst',
  lockedHeading: 'Denne verifiseringen kan ikke lenger fortsette på en telefon',
  lockedLead: 'Feil kode ble skrevet inn på datamaskinen for mange ganger. Fortsett på datamaskinen der du startet: bruk appen der, eller start på nytt.',

  actionAndOutcome: 'Send enten en handling eller et utfall, ikke begge.',
  unknownOutcome: (value) => `Ukjent utfall ${value}.`,
  everyStepFirst: 'Fullfør dette steget først: alle stegene må være gjort før du deler.',
  documentChanged: 'Dokumentet er endret siden denne skjermen ble vist. Se over hva som blir delt, og prøv igjen.',
  chooseWhatToDo: 'Velg hva du vil gjøre.',
  unknownAction: (value) => `Ukjent handling ${value}.`,
  stepFirst: 'Fullfør dette steget først.',
  chooseDocument: 'Velg et dokument.',
  unknownPersona: 'Den personaen finnes ikke. Velg en fra listen.',
};

export const APP_MESSAGES: Record<Locale, AppMessages> = { en, nb };
