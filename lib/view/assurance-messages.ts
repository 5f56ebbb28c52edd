/**
 * The words of the assurance verdict (lib/view/assurance.ts and app/_components/verdict.tsx) in
 * each language. Claim names, codes and values (`given_name`, `standard_etsi`, `VALID`,
 * `verification.time`) are never translated; dates and lists come in already formatted.
 * Imported by client components too: it imports nothing but types, so it adds only itself to a
 * page's script.
 */
import type { Locale } from '@/lib/i18n/locale';

const en = {
  /** Verdict → its words */
  verdicts: {
    verified: 'Verified',
    verified_with_warnings: 'Verified with warnings',
    not_verified: 'Not verified',
  },
  /** RuleOutcome → its words (spoken before a rule, and before a reason in the panel) */
  outcomes: {
    met: 'Met',
    warning: 'Warning',
    failed: 'Failed',
    not_applicable: 'Not applicable',
  },
  /** where the day of the verification came from, after "the" */
  sources: {
    'verification.time': 'verification.time of the evidence',
    auth_time: 'auth_time of the ID token',
    iat: 'iat of the ID token',
    today: 'today: the token gives no time',
  },
  panel: {
    /** followed by the policy's name, then `tally` */
    judgedBy: 'Judged by the policy',
    tally: (met: number, failed: number, warnings: number) =>
      `: ${met} of its rules met${failed > 0 ? `, ${failed} failed` : ''}${warnings > 0 ? `, ${warnings} with a warning` : ''}. The rules are listed under “Policy” below.`,
  },
  card: {
    title: (policy: string) => `Policy: ${policy}`,
    intro: (judgedOn: string, source: string) =>
      `The rules this result is held to, judged on ${judgedOn} (the ${source}). A rule about something not requested does not apply.`,
  },
  /** the rules of lib/view/assurance.ts: each one's title and reasons */
  rules: {
    /** claim names, joined */
    present: (names: string) => `${names} present`,
    /** when the document rule has already said so */
    noDocumentEvidence: 'no document evidence came back (see the document rule)',
    trust_framework: {
      title: (requested: string) => `Verified under the trust framework requested (${requested})`,
      noVerifiedClaims: 'the token holds no verified claims',
      states: (stated: string) => `the token states ${stated}`,
      statesOther: (stated: string | undefined, requested: string) => `the token states ${stated ?? 'no trust framework'}, not the ${requested} requested`,
    },
    essential_claims: {
      title: 'Every essential claim present',
      noneRequested: 'no claim was requested as essential',
      missing: (names: string) => `essential but not provided: ${names}`,
    },
    voluntary_claims: {
      title: 'Voluntary claims present',
      noneRequested: 'no claim was requested as voluntary',
      missing: (names: string) => `requested but not provided: ${names} (voluntary, so the service may leave them out)`,
    },
    document_valid: {
      title: 'Identity document provided and not expired',
      notRequested: 'document evidence was not requested',
      notProvided: 'document evidence was requested but not provided',
      withoutExpiry: (day: string) => `the document came without its date of expiry, so its validity on ${day} is unknown`,
      expiryNotRequested: (day: string) => `the date of expiry was not requested, so its validity on ${day} is unknown`,
      expired: (expiry: string, day: string) => `expired on ${expiry}, before the verification on ${day}`,
      valid: (expiry: string, day: string) => `valid until ${expiry}; verified on ${day}`,
    },
    chip_authentication: {
      title: 'Document chip authentication passed',
      notRequested: 'the chip authentication result was not requested',
      notProvided: 'the chip authentication result was requested but not provided',
      notPassed: (outcome: string) => `active_authentication_result = ${outcome}, not passed`,
    },
    issuer_check: {
      titleEtsi: 'Issuer check VALID (required under standard_etsi)',
      title: 'Issuer check not failed',
      etsiNotRequested: 'standard_etsi requires a valid issuer check; it was not requested, so it cannot be confirmed here',
      notRequested: 'the issuer check was not requested',
      notProvided: 'the issuer check was not provided',
      notValid: (status: string) => `issuer_check.valid = ${status}, not VALID`,
      /** `status` is UNKNOWN or absent */
      norwegianOnly: (status: string | undefined) => `${status ?? 'not provided'}: the service checks only Norwegian documents' issuers`,
    },
    register_match: {
      title: 'Matched in the population register',
      notRequested: 'population register evidence was not requested',
      matched: (source: string | undefined) => `matched in ${source ?? 'the register'}`,
      noMatch: 'no register evidence came back: no match, or this client is not entitled to register data',
    },
    minimum_age: {
      title: (years: number) => `At least ${years} years old`,
      birthdateNotProvided: 'the date of birth was not provided',
      birthdateNotRequested: 'the date of birth was not requested',
      withoutYear: 'the date of birth came without its year',
      old: (age: number, day: string) => `${age} years old on ${day}`,
      under: (age: number, day: string, years: number) => `${age} years old on ${day}, under ${years}`,
      /** presenter mode: met or not, without the age */
      oldEnough: (years: number, day: string) => `${years} or older on ${day}`,
      tooYoung: (years: number, day: string) => `under ${years} on ${day}`,
    },
    signing_certificate: {
      title: 'Signing certificate consistent',
      noCertificate: 'the signing key came without a certificate',
      differs: 'x5c[0] holds another key than the one that verified the signature',
      unreadable: 'the certificate in x5c[0] cannot be read',
      chainNotValid: (reason: string) => `the certificate chain is not valid: ${reason}`,
      validated: (anchor: string) => `the key matches its certificate, whose chain leads to ${anchor}`,
      notValidated: 'the key matches its certificate (chain not validated: no IDV_TRUST_ANCHOR)',
    },
  },
};

export type AssuranceMessages = typeof en;

const nb: AssuranceMessages = {
  verdicts: {
    verified: 'Verifisert',
    verified_with_warnings: 'Verifisert med advarsler',
    not_verified: 'Ikke verifisert',
  },
  outcomes: {
    met: 'Oppfylt',
    warning: 'Advarsel',
    failed: 'Ikke oppfylt',
    not_applicable: 'Ikke aktuelt',
  },
  sources: {
    'verification.time': 'verification.time i dokumentasjonen',
    auth_time: 'auth_time i ID-tokenet',
    iat: 'iat i ID-tokenet',
    today: 'i dag: tokenet oppgir ikke noe tidspunkt',
  },
  panel: {
    judgedBy: 'Vurdert etter regelsettet',
    tally: (met, failed, warnings) =>
      `: ${met} av reglene er oppfylt${failed > 0 ? `, ${failed} er ikke oppfylt` : ''}${warnings > 0 ? `, ${warnings} har advarsel` : ''}. Reglene står under «Regelsett» nedenfor.`,
  },
  card: {
    title: (policy) => `Regelsett: ${policy}`,
    intro: (judgedOn, source) =>
      `Reglene dette resultatet holdes opp mot, vurdert per ${judgedOn} (${source}). En regel om noe som ikke ble bedt om, er ikke aktuell.`,
  },
  rules: {
    present: (names) => `${names} er oppgitt`,
    noDocumentEvidence: 'ingen dokumentasjon av identitetsdokument kom tilbake (se regelen om dokumentet)',
    trust_framework: {
      title: (requested) => `Verifisert etter tillitsrammeverket som ble bedt om (${requested})`,
      noVerifiedClaims: 'tokenet inneholder ingen verifiserte opplysninger',
      states: (stated) => `tokenet oppgir ${stated}`,
      statesOther: (stated, requested) =>
        stated === undefined
          ? `tokenet oppgir ikke noe tillitsrammeverk, men ${requested} ble bedt om`
          : `tokenet oppgir ${stated}, ikke ${requested} som ble bedt om`,
    },
    essential_claims: {
      title: 'Alle påkrevde opplysninger er oppgitt',
      noneRequested: 'ingen opplysninger ble bedt om som påkrevd',
      missing: (names) => `påkrevd, men ikke oppgitt: ${names}`,
    },
    voluntary_claims: {
      title: 'Frivillige opplysninger er oppgitt',
      noneRequested: 'ingen opplysninger ble bedt om som frivillige',
      missing: (names) => `bedt om, men ikke oppgitt: ${names} (frivillige opplysninger kan tjenesten utelate)`,
    },
    document_valid: {
      title: 'Identitetsdokument levert og ikke utløpt',
      notRequested: 'dokumentasjon av identitetsdokument ble ikke bedt om',
      notProvided: 'dokumentasjon av identitetsdokument ble bedt om, men ikke levert',
      withoutExpiry: (day) => `dokumentet kom uten utløpsdato, så det er ukjent om det var gyldig ${day}`,
      expiryNotRequested: (day) => `utløpsdatoen ble ikke bedt om, så det er ukjent om dokumentet var gyldig ${day}`,
      expired: (expiry, day) => `utløpt ${expiry}, før verifiseringen ${day}`,
      valid: (expiry, day) => `gyldig til og med ${expiry}; verifisert ${day}`,
    },
    chip_authentication: {
      title: 'Brikkeautentisering av dokumentet bestått',
      notRequested: 'resultatet av brikkeautentiseringen ble ikke bedt om',
      notProvided: 'resultatet av brikkeautentiseringen ble bedt om, men ikke oppgitt',
      notPassed: (outcome) => `active_authentication_result = ${outcome}, ikke passed`,
    },
    issuer_check: {
      titleEtsi: 'Utstederkontroll VALID (påkrevd etter standard_etsi)',
      title: 'Utstederkontrollen har ikke feilet',
      etsiNotRequested: 'standard_etsi krever gyldig utstederkontroll; den ble ikke bedt om, så den kan ikke bekreftes her',
      notRequested: 'utstederkontrollen ble ikke bedt om',
      notProvided: 'utstederkontrollen ble ikke oppgitt',
      notValid: (status) => `issuer_check.valid = ${status}, ikke VALID`,
      norwegianOnly: (status) => `${status ?? 'ikke oppgitt'}: tjenesten kontrollerer bare utstederen av norske dokumenter`,
    },
    register_match: {
      title: 'Treff i folkeregisteret',
      notRequested: 'dokumentasjon fra folkeregisteret ble ikke bedt om',
      matched: (source) => `treff i ${source ?? 'registeret'}`,
      noMatch: 'ingen dokumentasjon fra folkeregisteret kom tilbake: ingen treff, eller klienten har ikke tilgang til registeropplysninger',
    },
    minimum_age: {
      title: (years) => `Minstealder ${years} år`,
      birthdateNotProvided: 'fødselsdatoen ble ikke oppgitt',
      birthdateNotRequested: 'fødselsdatoen ble ikke bedt om',
      withoutYear: 'fødselsdatoen kom uten årstall',
      old: (age, day) => `${age} år per ${day}`,
      under: (age, day, years) => `${age} år per ${day}, under minstealderen på ${years} år`,
      oldEnough: (years, day) => `${years} år eller eldre per ${day}`,
      tooYoung: (years, day) => `under ${years} år per ${day}`,
    },
    signing_certificate: {
      title: 'Signeringssertifikatet stemmer',
      noCertificate: 'signeringsnøkkelen kom uten sertifikat',
      differs: 'x5c[0] inneholder en annen nøkkel enn den som verifiserte signaturen',
      unreadable: 'sertifikatet i x5c[0] kan ikke leses',
      chainNotValid: (reason) => `sertifikatkjeden er ikke gyldig: ${reason}`,
      validated: (anchor) => `nøkkelen samsvarer med sertifikatet, og kjeden fører til ${anchor}`,
      notValidated: 'nøkkelen samsvarer med sertifikatet (kjeden er ikke validert: IDV_TRUST_ANCHOR er ikke satt)',
    },
  },
};

export const ASSURANCE_MESSAGES: Record<Locale, AssuranceMessages> = { en, nb };
