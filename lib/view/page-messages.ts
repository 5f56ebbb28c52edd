/**
 * The words of the server-rendered pages and their frame (app/layout.tsx, app/page.tsx,
 * app/result/page.tsx, the mode badge), in each language (lib/i18n).
 */
import type { Locale } from '@/lib/i18n/locale';
import type { ListedField, SentValue } from '@/lib/verification/failures';
import type { UnreadPart } from '@/lib/verification/selection';

/**
 * What a field of a request holds, as "is not a known …" ends: a link's (lib/verification/selection.ts)
 * and the start form's, whose refusal the failure page words the same way.
 */
const LINK_FIELD_EN: Record<ListedField, string> = {
  preset: 'preset',
  trust_framework: 'trust framework',
  claim: 'claim',
  essential: 'claim to mark essential',
  evidence: 'kind of evidence',
  document_detail: 'document detail',
};
const LINK_FIELD_NB: Record<ListedField, string> = {
  preset: 'et kjent ferdig valg',
  trust_framework: 'et kjent tillitsrammeverk',
  claim: 'en kjent opplysning',
  essential: 'en kjent opplysning å merke som påkrevd',
  evidence: 'en kjent type dokumentasjon',
  document_detail: 'en kjent dokumentdetalj',
};

/** A link's own value, which the reader keeps only when it may be repeated, as a value sent. */
const sent = (value: string | undefined): SentValue | undefined => (value === undefined ? undefined : { text: value });
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A value a request sent, as a sentence repeats it: quoted when it was kept (a short plain
 * token), else only by its length, and without either when nothing was kept. React escapes it.
 */
const valueEn = (value: SentValue | undefined) =>
  value === undefined ? 'a value' : 'text' in value ? `“${value.text}”` : `a value of ${value.length} characters`;
const valueNb = (value: SentValue | undefined) => (value === undefined ? 'en verdi' : 'text' in value ? `«${value.text}»` : `en verdi på ${value.length} tegn`);
const notKnownEn = (field: ListedField, value: SentValue | undefined) => `${capitalised(valueEn(value))} is not a known ${LINK_FIELD_EN[field]}.`;
const notKnownNb = (field: ListedField, value: SentValue | undefined) => `${capitalised(valueNb(value))} er ikke ${LINK_FIELD_NB[field]}.`;

const en = {
  /** a value a request sent, as a sentence repeats it */
  value: valueEn,
  /** a value a field does not take: a link's that could not be read, a start form's that was refused */
  notKnown: notKnownEn,
  title: 'Identity verification — relying party',
  /** the title in customer mode (IDV_CUSTOMER_MODE): no word of the protocol's roles */
  customerTitle: 'Identity verification',
  titleTemplate: '%s · Identity verification',
  description: 'Reference relying party for an OpenID Connect for Identity Assurance verification service.',
  skipToContent: 'Skip to content',
  appName: 'Identity verification',
  appRole: 'relying party',
  language: 'Language',
  theme: 'Theme',
  themes: { system: 'Auto', light: 'Light', dark: 'Dark' },
  /**
   * The presenter switch's words, in two parts: a phone shows only the first, so that its header
   * keeps the switches in one row (the switch's pressed look says it is on); read together they
   * say it in full.
   */
  presenterMode: (on: boolean) => ['Presenter', ` mode${on ? ': on' : ''}`] as [string, string],
  presenterBanner:
    'Presenter mode: names are shown as initials, dates of birth and ages hidden, the portrait blurred and every number masked, on every page and in what is copied or downloaded.',
  /** the banner on a phone: one short line */
  presenterBannerShort: 'Presenter mode: personal data is hidden.',
  mode: { emulator: 'Embedded emulator', provider: 'Provider' },
  /** the badge's words on a phone */
  modeShort: { emulator: 'Emulator', provider: 'Provider' },
  /** the alternative text of the demo's logo (IDV_DEMO_LOGO) */
  logoOf: (name: string) => `${name} logo`,
  /** the home page's first link: past the presets and the claims to the Start button */
  skipToStart: 'Skip to Start verification',
  home: {
    signedOut: 'Signed out. The verified identity and the session were deleted.',
    /** before the issuer the app talks to */
    service: 'Service:',
    qaPanel: 'QA panel: personas, keys and faults',
    doctor: 'Doctor: the configuration against the service',
    heading: 'Verify an identity',
    intro:
      'Choose what to ask for. The person scans their passport or ID card and passes a face check in the mobile identity app; we receive the verified identity as an encrypted, signed ID token, check every part of it, and show what came back. Only what you tick is requested.',
    linkPartlyRead: 'Only part of the link’s request could be read, so only that part is ticked (never more than the link asked for). Not understood:',
    linkUnread: 'The link’s request could not be read, so nothing is ticked: choose what to ask for. Not understood:',
    // React escapes the value, and the reader repeats only a short, plain one (PLAIN_TOKEN, lib/verification/failures.ts)
    unreadPart: ({ reason, field, value }: UnreadPart) =>
      reason === 'not_offered'
        ? `${value === undefined ? 'Its trust framework' : `The trust framework “${value}”`} is not one the service offers.`
        : notKnownEn(field, sent(value)),
    moreUnread: (count: number) => `And ${count} more.`,
    discoveryError: (error: string) => `The service’s discovery document could not be loaded (${error}); the trust frameworks shown are the specification’s.`,
  },
  result: {
    title: 'Verified identity',
    notAvailable: 'Result not available',
    none: 'No verified identity',
    noneExplained: (minutes: number) =>
      `There is no result in this browser session: it was deleted, it expired after ${minutes} minutes, or no verification has run yet.`,
    start: 'Start a verification',
    /** the result's actions: the picker again, empty; the same request again (POST /result/again) */
    actions: 'What next',
    newVerification: 'New verification',
    runAgain: 'Run again',
    runAgainHint: 'The same request again',
    signOut: 'Sign out and delete',
    kept: (minutes: number, until: string) =>
      `This result is kept on the server for ${minutes} minutes (until ${until} UTC) and only this browser session can see it. Signing out deletes it at once.`,
    /** a tab reloaded after another tab of the browser finished a newer verification */
    replaced: (finishedAt: string) =>
      `This tab showed an earlier result. A newer verification, finished at ${finishedAt} UTC in another tab or window, replaced it: this browser keeps only its newest result.`,
  },
};

export type PageMessages = typeof en;

const nb: PageMessages = {
  value: valueNb,
  notKnown: notKnownNb,
  title: 'Identitetsverifisering — tjenesteyter',
  customerTitle: 'Identitetsverifisering',
  titleTemplate: '%s · Identitetsverifisering',
  description: 'Referanseimplementasjon av en tjenesteyter for en identitetsverifiseringstjeneste med OpenID Connect for Identity Assurance.',
  skipToContent: 'Hopp til innholdet',
  appName: 'Identitetsverifisering',
  appRole: 'tjenesteyter',
  language: 'Språk',
  theme: 'Tema',
  themes: { system: 'Auto', light: 'Lys', dark: 'Mørk' },
  presenterMode: (on) => ['Presentasjon', `smodus${on ? ': på' : ''}`],
  presenterBanner:
    'Presentasjonsmodus: navn vises som initialer, fødselsdatoer og alder skjules, portrettet gjøres uskarpt og alle numre maskeres, på alle sider og i det som kopieres eller lastes ned.',
  presenterBannerShort: 'Presentasjonsmodus: personopplysninger skjules.',
  mode: { emulator: 'Innebygd emulator', provider: 'Leverandør' },
  modeShort: { emulator: 'Emulator', provider: 'Leverandør' },
  logoOf: (name) => `Logoen til ${name}`,
  skipToStart: 'Hopp til Start verifisering',
  home: {
    signedOut: 'Logget ut. Den verifiserte identiteten og økten er slettet.',
    service: 'Tjeneste:',
    qaPanel: 'QA-panel: personaer, nøkler og feil',
    doctor: 'Diagnose: konfigurasjonen mot tjenesten',
    heading: 'Verifiser en identitet',
    intro:
      'Velg hva du vil be om. Personen skanner passet eller ID-kortet sitt og består en ansiktskontroll i identitetsappen på mobilen; vi mottar den verifiserte identiteten som et kryptert, signert ID-token, kontrollerer hver del av det og viser hva som kom tilbake. Bare det du krysser av for, blir bedt om.',
    linkPartlyRead: 'Bare en del av forespørselen i lenken kunne leses, så bare den delen er krysset av (aldri mer enn lenken ba om). Ikke forstått:',
    linkUnread: 'Forespørselen i lenken kunne ikke leses, så ingenting er krysset av: velg hva du vil be om. Ikke forstått:',
    unreadPart: ({ reason, field, value }) =>
      reason === 'not_offered'
        ? `${value === undefined ? 'Tillitsrammeverket i lenken' : `Tillitsrammeverket «${value}»`} tilbys ikke av tjenesten.`
        : notKnownNb(field, sent(value)),
    moreUnread: (count) => `Og ${count} til.`,
    discoveryError: (error) => `Tjenestens discovery-dokument kunne ikke lastes (${error}); tillitsrammeverkene som vises, er spesifikasjonens.`,
  },
  result: {
    title: 'Verifisert identitet',
    notAvailable: 'Resultatet er ikke tilgjengelig',
    none: 'Ingen verifisert identitet',
    noneExplained: (minutes) =>
      `Det finnes ikke noe resultat i denne nettleserøkten: det er slettet, det utløp etter ${minutes} minutter, eller ingen verifisering er kjørt ennå.`,
    start: 'Start en verifisering',
    actions: 'Hva nå',
    newVerification: 'Ny verifisering',
    runAgain: 'Kjør på nytt',
    runAgainHint: 'Den samme forespørselen en gang til',
    signOut: 'Logg ut og slett',
    kept: (minutes, until) =>
      `Dette resultatet lagres på serveren i ${minutes} minutter (til kl. ${until} UTC), og bare denne nettleserøkten kan se det. Når du logger ut, slettes det med en gang.`,
    replaced: (finishedAt) =>
      `Denne fanen viste et tidligere resultat. En nyere verifisering, fullført kl. ${finishedAt} UTC i en annen fane eller et annet vindu, erstattet det: nettleseren beholder bare det nyeste resultatet.`,
  },
};

export const PAGE_MESSAGES: Record<Locale, PageMessages> = { en, nb };
