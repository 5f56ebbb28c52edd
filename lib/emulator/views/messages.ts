/**
 * The words every page of the emulator shares, in each language it speaks (lib/i18n): the language
 * switch, the spec's names for claims and document details, documents, personas, and the
 * situations an error page explains. Each page's own words are in its catalog beside it
 * (authorization-messages.ts, app-messages.ts, panel-messages.ts).
 *
 * Protocol text is never translated: OAuth error codes and descriptions, claim names
 * (`given_name`), trust framework ids, parameter names and persona data (names, numbers) stay as
 * they are; only the words around them change. `nb` is typed by `en`, so tsc proves it complete.
 * @see spec 2.3 (claims, document details); views/language.ts
 */
import { formatDate } from '../../i18n/format';
import type { Locale } from '../../i18n/locale';
import type { ClaimName, DocumentDetail } from '../checks/claims-request';
import type { PageReason } from '../errors';
import { personas, type Persona, type PersonaClaims } from '../personas/personas';

/** The personas' ids (personas/personas.ts), so each catalog must describe every one; messages.test.ts keeps the two lists equal. */
export const PERSONA_IDS = [
  'ingrid-haugen',
  'lars-eriksson',
  'amira-nilsen',
  'jonas-weber',
  'sofia-costa',
  'mikkel-strand',
  'eva-lindqvist',
  'nora-berg',
  'alex-moreau',
  'sam-keller',
  'tobias-hansen',
] as const;
export type PersonaId = (typeof PERSONA_IDS)[number];

/** The persona descriptions as personas.ts writes them: the English catalog is the data itself. */
const englishDescriptions = Object.fromEntries(personas.map((persona) => [persona.id, persona.description])) as Record<PersonaId, string>;

type DocumentType = Persona['document']['type'];

/** An error as a page shows it. */
export interface PageError {
  error: string;
  description: string;
  status: number;
  reason?: PageReason;
}

const en = {
  /** the language switch's name (each language is named in itself: LOCALE_NAMES) */
  language: 'Language',

  /** @see spec 2.3 "Verified claims fields" */
  claimLabels: {
    name: 'Full name',
    given_name: 'Given name(s)',
    family_name: 'Family name(s)',
    picture: 'Portrait from the document',
    gender: 'Gender',
    birthdate: 'Date of birth',
    nationalities: 'Nationalities',
  } satisfies Record<ClaimName, string> as Record<ClaimName, string>,

  /** @see spec 2.3 "Document evidence element" */
  detailLabels: {
    type: 'Document type',
    document_number: 'Document number',
    date_of_issuance: 'Date of issue',
    date_of_expiry: 'Date of expiry',
    'issuer.country_code': 'Issuing country',
    'issuer.name': 'Issuing authority',
    personal_number: 'National identity number',
    active_authentication_result: 'Chip authentication result',
    issuer_check: 'Issuer check',
  } satisfies Record<DocumentDetail, string> as Record<DocumentDetail, string>,

  /** The personas' countries (ISO 3166-1 alpha-3) as the adjective before a document. */
  countryAdjectives: {
    NOR: 'Norwegian',
    SWE: 'Swedish',
    DEU: 'German',
    FIN: 'Finnish',
    DNK: 'Danish',
    PRT: 'Portuguese',
    FRA: 'French',
    CHE: 'Swiss',
  },
  /** in a sentence: "Norwegian passport FK4820713" */
  documentType: { passport: 'passport', idcard: 'ID card' } satisfies Record<DocumentType, string> as Record<DocumentType, string>,
  /** on its own: the value of the `type` detail */
  documentTypeTitle: { passport: 'Passport', idcard: 'ID card' } satisfies Record<DocumentType, string> as Record<DocumentType, string>,
  /** "Norwegian passport FK4820713, expires 10 June 2031": a date written out, which a narrow line breaks at its spaces only */
  documentSummary: (documentName: string, expiry: string) => `${documentName}, expires ${formatDate(expiry, 'en')}`,

  gender: {
    male: 'Male',
    female: 'Female',
    unknown: 'Unknown',
    unspecified: 'Unspecified',
  } satisfies Record<PersonaClaims['gender'], string> as Record<PersonaClaims['gender'], string>,
  /** an issuer check's result (2.3 `issuer_check.valid`), shown as the service returns it */
  issuerCheckValue: (value: string) => value,
  notAvailable: 'not available',

  personaTags: {
    faceCheckFails: 'Face check fails',
    documentExpired: 'Document expired',
    inPopulationRegister: 'In the population register',
    /** the persona the relying party suggested (login_hint) */
    suggestedBy: (client: string) => `Suggested by ${client}`,
  },
  personaDescriptions: englishDescriptions,

  /**
   * What an error page says happened. English shows the protocol's description, which is
   * English already; other languages explain the situation and show the description apart.
   */
  errorExplanation: (error: PageError) => error.description,
  /** the protocol's own (English) description, where the explanation is in another language */
  technicalDescription: undefined as string | undefined,
  /** why a verification was refused, after "Reason:" (the stored access_denied description, or its situation) */
  denialReason: (error: { description: string; reason?: PageReason }) => error.description,

  /** The QA control on a flow's pages: how the service answers this one verification (qa/flow-answers.ts). */
  qa: {
    summary: 'QA: answer this verification with…',
    now: (answer: string) => `now: ${answer}`,
    label: 'How the service answers this verification',
    hint: 'A tool for testers, shown because this browser may use the QA panel. It changes this verification only; continue as usual afterwards.',
    normal: 'The normal answer',
    faults: 'A fault the relying party must refuse',
    variants: 'An unusual but valid answer the relying party must accept',
    errors: 'An error on the redirect back (spec part 7)',
    /** what each error of qa/flow-answers.ts means (in English, its description itself) */
    errorMeanings: undefined as Partial<Record<string, string>> | undefined,
    errorOption: (error: string, meaning: string) => `${error}: ${meaning}`,
    faultOption: (label: string, expected: string) => `${label} (the relying party answers ${expected})`,
    variantOption: (label: string) => `${label} (the relying party accepts it)`,
    use: 'Use this answer',
    chosen: (answer: string) => `This verification will be answered with: ${answer}.`,
    working: 'Working…',
    returning: (client: string, seconds: number | string) => `Returning you to ${client}… ${seconds} s`,
  },
};

export type EmulatorMessages = typeof en;

/** What each situation means, in Norwegian. */
const NB_REASONS: Record<PageReason, string> = {
  verification_unknown: 'Denne verifiseringen finnes ikke eller er utløpt. Start på nytt fra tjenesten du kom fra.',
  verification_completed: 'Denne verifiseringen er allerede fullført.',
  wrong_browser: 'Bare nettleseren som startet verifiseringen, kan fortsette den.',
  open_on_another_device: 'Verifiseringen er allerede åpen på en annen enhet. Start på nytt på datamaskinen for å bruke denne enheten.',
  too_many_phones: 'For mange enheter venter på en kode for denne verifiseringen. Vent litt, og åpne lenken igjen.',
  device_link_invalid: 'Denne enhetslenken gjelder ikke for denne verifiseringen.',
  open_app_from_link: 'Åpne appen fra lenken først.',
  unknown_step: 'Appen har ikke et slikt steg.',
  unknown_client: 'Klienten som sendte deg hit, er ikke registrert hos tjenesten.',
  request_uri_used: 'Denne forespørselen er allerede brukt. Start verifiseringen på nytt fra tjenesten du kom fra.',
  request_uri_unknown: 'Forespørselen finnes ikke eller er utløpt. Start verifiseringen på nytt fra tjenesten du kom fra.',
  request_uri_other_client: 'Forespørselen ble ikke utstedt til denne klienten.',
  too_many_requests: 'For mange forespørsler fra denne adressen. Vent litt, og prøv igjen.',
  user_cancelled: 'du avbrøt verifiseringen',
  face_check_failed: 'ansiktskontrollen mislyktes: ansiktet stemte ikke med portrettet i dokumentet',
  issuer_check_required: 'tillitsrammeverket standard_etsi krever gyldig utstederkontroll, og dokumentet har ikke det',
  qa_not_allowed: 'Bare den som har tilgang til QA-panelet, kan velge hvordan tjenesten svarer. Logg inn på panelet først.',
  cross_site_post: 'Et skjema fra et annet nettsted kan ikke endre denne verifiseringen.',
};

/** What an error without a named situation means, by its HTTP status. */
function nbStatusExplanation(status: number): string {
  switch (status) {
    case 400:
      return 'Forespørselen mangler noe eller er ugyldig.';
    case 403:
      return 'Forespørselen ble avvist.';
    case 409:
      return 'Forespørselen passer ikke med hvor langt verifiseringen har kommet.';
    case 413:
      return 'Forespørselen er for stor.';
    case 429:
      return NB_REASONS.too_many_requests;
    default:
      return 'Forespørselen kunne ikke behandles.';
  }
}

const nb: EmulatorMessages = {
  language: 'Språk',

  claimLabels: {
    name: 'Fullt navn',
    given_name: 'Fornavn',
    family_name: 'Etternavn',
    picture: 'Portrett fra dokumentet',
    gender: 'Kjønn',
    birthdate: 'Fødselsdato',
    nationalities: 'Statsborgerskap',
  },

  detailLabels: {
    type: 'Dokumenttype',
    document_number: 'Dokumentnummer',
    date_of_issuance: 'Utstedelsesdato',
    date_of_expiry: 'Utløpsdato',
    'issuer.country_code': 'Utstedende land',
    'issuer.name': 'Utstedende myndighet',
    personal_number: 'Identitetsnummer',
    active_authentication_result: 'Resultat av brikkeautentisering',
    issuer_check: 'Utstederkontroll',
  },

  countryAdjectives: {
    NOR: 'norsk',
    SWE: 'svensk',
    DEU: 'tysk',
    FIN: 'finsk',
    DNK: 'dansk',
    PRT: 'portugisisk',
    FRA: 'fransk',
    CHE: 'sveitsisk',
  },
  documentType: { passport: 'pass', idcard: 'ID-kort' },
  documentTypeTitle: { passport: 'Pass', idcard: 'ID-kort' },
  documentSummary: (documentName, expiry) => `${documentName}, utløper ${formatDate(expiry, 'nb')}`,

  gender: {
    male: 'Mann',
    female: 'Kvinne',
    unknown: 'Ukjent',
    unspecified: 'Ikke spesifisert',
  },
  issuerCheckValue: (value) => ({ VALID: 'gyldig', INVALID: 'ugyldig', UNKNOWN: 'ukjent' })[value] ?? value,
  notAvailable: 'ikke tilgjengelig',

  personaTags: {
    faceCheckFails: 'Ansiktskontrollen feiler',
    documentExpired: 'Dokumentet er utløpt',
    inPopulationRegister: 'I folkeregisteret',
    suggestedBy: (client) => `Foreslått av ${client}`,
  },
  personaDescriptions: {
    'ingrid-haugen': 'Brikke og utstederkontroll er gyldige; finnes i folkeregisteret.',
    'lars-eriksson': 'Utstederkontroll UNKNOWN, som for alle ikke-norske dokumenter; finnes ikke i folkeregisteret.',
    'amira-nilsen': 'Har D-nummer; finnes i folkeregisteret.',
    'jonas-weber': 'Kortet har verken identitetsnummer eller utstederkontroll.',
    'sofia-costa': 'Dobbelt statsborgerskap (norsk og portugisisk); finnes i folkeregisteret.',
    'mikkel-strand': 'Gyldig fødselsnummer, men ikke funnet i folkeregisteret.',
    'eva-lindqvist': 'Passet utløp i 2023.',
    'nora-berg': 'Brikken i passet besto ikke autentiseringen; finnes i folkeregisteret.',
    'alex-moreau': 'Kjønn ikke spesifisert; ID-kortet oppgir verken utstedelsesdato eller identitetsnummer.',
    'sam-keller': 'Kjønn ukjent; utstederkontroll UNKNOWN.',
    'tobias-hansen': 'Ansiktskontrollen feiler, så verifiseringen blir avvist.',
  },

  errorExplanation: (error) => {
    const explanation = error.reason ? NB_REASONS[error.reason] : nbStatusExplanation(error.status);
    // The reasons for a refusal are written to follow "Årsak:"; on their own they start a sentence.
    return `${explanation.charAt(0).toUpperCase()}${explanation.slice(1)}${/[.!?]$/.test(explanation) ? '' : '.'}`;
  },
  technicalDescription: 'Teknisk beskrivelse (på engelsk):',
  denialReason: (error) => (error.reason ? NB_REASONS[error.reason] : error.description),

  qa: {
    summary: 'QA: svar på denne verifiseringen med …',
    now: (answer) => `nå: ${answer}`,
    label: 'Hvordan tjenesten svarer på denne verifiseringen',
    hint: 'Et verktøy for testere, vist fordi denne nettleseren kan bruke QA-panelet. Det endrer bare denne verifiseringen; fortsett som vanlig etterpå.',
    normal: 'Det vanlige svaret',
    faults: 'En feil tjenesten som bruker svaret, må avvise',
    variants: 'Et uvanlig, men gyldig svar tjenesten som bruker det, må godta',
    errors: 'En feilkode på vei tilbake (spesifikasjonen del 7)',
    errorMeanings: {
      user_cancelled: 'brukeren avbrøt verifiseringen',
      face_check_failed: 'ansiktskontrollen mislyktes',
      issuer_check_required: 'standard_etsi krever gyldig utstederkontroll',
      invalid_request: 'manglende eller ugyldige parametere',
      unauthorized_client: 'klienten har ikke tilgang til denne forespørselen',
      invalid_scope: 'ugyldig scope-verdi',
      server_error: 'intern feil i tjenesten',
      temporarily_unavailable: 'tjenesten er midlertidig utilgjengelig',
    },
    errorOption: (error, meaning) => `${error}: ${meaning}`,
    faultOption: (label, expected) => `${label} (tjenesten svarer ${expected})`,
    variantOption: (label) => `${label} (tjenesten godtar det)`,
    use: 'Bruk dette svaret',
    chosen: (answer) => `Denne verifiseringen får svaret: ${answer}.`,
    working: 'Arbeider …',
    returning: (client, seconds) => `Sender deg tilbake til ${client} … ${seconds} s`,
  },
};

export const EMULATOR_MESSAGES: Record<Locale, EmulatorMessages> = { en, nb };
