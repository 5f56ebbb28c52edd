/**
 * The words of the picker (app/_components/picker.tsx), in each language (lib/i18n). A client
 * component's catalog: kept to the picker's own words, since both languages travel to the browser.
 */
import type { SelectionProblem } from '@/lib/oidc/claims-request';
import type { Locale } from '@/lib/i18n/locale';

const en = {
  presets: 'Presets',
  /** before the display name of the persona a preset suggests (emulator mode) */
  suggestedPerson: 'Suggested person:',
  judgedBy: ['The result will be judged by the policy', '.'] as [string, string],
  trustFramework: 'Trust framework',
  claims: 'Claims',
  essential: 'essential',
  evidence: 'Evidence',
  document: 'Identity document (passport or ID card)',
  populationRegister: 'Population register',
  personalNumber: 'Personal number to look up (optional, 11 digits)',
  willRefuse: 'The service will refuse this request:',
  problems: {
    nothing_requested: 'Request at least one claim or one kind of evidence.',
    etsi_requires_names: 'The standard_etsi trust framework requires given_name and family_name to be requested.',
    personal_number_not_11_digits: 'The personal number to look up must be 11 digits.',
  } satisfies Record<SelectionProblem, string> as Record<SelectionProblem, string>,
  sendAnyway: 'QA: send it anyway, to see the service’s own error',
  start: 'Start verification',
  /** on the button while the request is pushed */
  starting: 'Starting…',
  /** announced when Start is pressed */
  startingStatus: 'Starting the verification: pushing the request to the service…',
  copyLink: 'Copy a link to this request',
  linkCopied: 'Link copied',
  linkOnClipboard: 'The link to this request is on the clipboard.',
  pushesAs: (emulator: boolean) => [`Pushes the request as client`, `, then opens the ${emulator ? 'emulated ' : ''}identity app.`] as [string, string],
  preview: 'Request preview',
  claimsParameter: 'claims parameter',
  requestObject: 'Request object payload (signed, then pushed)',
  freshValues: 'state, nonce, code_challenge and exp are made fresh for every request.',
  copy: 'Copy',
  copyThe: (title: string) => `Copy the ${title}`,
};

export type PickerMessages = typeof en;

const nb: PickerMessages = {
  presets: 'Ferdige valg',
  suggestedPerson: 'Foreslått person:',
  judgedBy: ['Resultatet vurderes etter regelsettet', '.'],
  trustFramework: 'Tillitsrammeverk',
  claims: 'Opplysninger',
  essential: 'påkrevd',
  evidence: 'Dokumentasjon',
  document: 'Identitetsdokument (pass eller ID-kort)',
  populationRegister: 'Registeroppslag',
  personalNumber: 'Fødselsnummer som skal slås opp (valgfritt, 11 sifre)',
  willRefuse: 'Tjenesten vil avvise denne forespørselen:',
  problems: {
    nothing_requested: 'Be om minst én opplysning eller én type dokumentasjon.',
    etsi_requires_names: 'Tillitsrammeverket standard_etsi krever at given_name og family_name blir bedt om.',
    personal_number_not_11_digits: 'Fødselsnummeret som skal slås opp, må ha 11 sifre.',
  },
  sendAnyway: 'QA: send likevel, for å se tjenestens egen feilmelding',
  start: 'Start verifisering',
  starting: 'Starter …',
  startingStatus: 'Starter verifiseringen: sender forespørselen til tjenesten …',
  copyLink: 'Kopier en lenke til denne forespørselen',
  linkCopied: 'Lenken er kopiert',
  linkOnClipboard: 'Lenken til denne forespørselen er kopiert til utklippstavlen.',
  pushesAs: (emulator) => ['Sender forespørselen som klient', `, og åpner deretter ${emulator ? 'den emulerte ' : ''}identitetsappen.`],
  preview: 'Forhåndsvisning av forespørselen',
  claimsParameter: 'claims-parameteren',
  requestObject: 'Innholdet i forespørselsobjektet (signert, deretter sendt)',
  freshValues: 'state, nonce, code_challenge og exp lages på nytt for hver forespørsel.',
  copy: 'Kopier',
  copyThe: (title) => `Kopier ${title.charAt(0).toLowerCase()}${title.slice(1)}`,
};

export const PICKER_MESSAGES: Record<Locale, PickerMessages> = { en, nb };
