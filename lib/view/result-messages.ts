/**
 * The words of the result page's view models (result-view.ts): field values, evidence extras and
 * the checks performed, in each language (lib/i18n). Claim names, header parameters and codes
 * stay as the spec writes them.
 */
import type { Locale } from '@/lib/i18n/locale';

const en = {
  genders: { male: 'Male', female: 'Female', unknown: 'Unknown', unspecified: 'Unspecified' } as Record<string, string>,
  documentTypes: { passport: 'Passport', idcard: 'National ID card' } as Record<string, string>,
  /** 2.3 `active_authentication_result` and `issuer_check.valid`: in English as the service sends them, as the emulator shows them */
  chipResults: {} as Record<string, string>,
  issuerCheckValues: {} as Record<string, string>,
  /** a NumericDate (auth_time) in words: "25 November 2026, 01:11:58 UTC" (the time and its zone kept on one line) */
  numericDate: (date: string, time: string) => `${date}, ${time}\u00a0UTC`,
  yearsOld: (years: string) => `${years} old`,
  check: (method: string, organization: string | undefined, txn: string | undefined, time: string | undefined) =>
    `Check: ${method}${organization ? ` by ${organization}` : ''}${txn ? `, transaction ${txn}` : ''}${time ? `, ${time}` : ''}`,
  attachment: (description: string | undefined, facts: string) => `Attachment: ${description ?? 'no description'} (${facts})`,
  embedded: (kib: number) => `embedded, ${kib} KiB`,
  at: (url: string) => `at ${url}`,
  checks: {
    callback: ['Callback matched this browser’s flow', 'state equals the value stored in this session; iss checked when sent (RFC 9207)'] as [string, string],
    pkce: ['PKCE', 'the token endpoint accepted our code_verifier for the S256 code_challenge'] as [string, string],
    decrypted: 'Decrypted with our key',
    key: (kid: string) => `key ${kid}`,
    signature: 'Signature verified',
    signatureDetail: (alg: string, kid: string) => `${alg} with the service key ${kid} from the JWKS`,
    issuer: 'Issuer',
    issuerDetail: (iss: string) => `iss = ${iss}, the configured issuer`,
    audience: 'Audience',
    audienceDetail: (aud: string, clientId: string) => `aud = ${aud}, our client_id ${clientId}`,
    expiry: 'Not expired',
    expiryDetail: (exp: string) => `exp ${exp} is in the future`,
    issuedAt: 'Not issued in the future',
    nonce: ['Nonce', 'equals the nonce of our request object'] as [string, string],
    subject: 'Subject',
    subjectDetail: (sub: string) => `sub present (${sub})`,
  },
  certificate: {
    named: (subject: string, issuer: string, serialIsKid: boolean) =>
      `x5c[0] (${subject}, issued by ${issuer}, ${serialIsKid ? 'serial number = kid' : 'its serial number is not the kid'})`,
    acceptedOnJwk: 'the token was accepted on the JWKS key alone',
    matches: 'Signing key matches its certificate',
    matchesDetail: (named: string) => `key matches certificate: ${named} holds the public key that verified the signature`,
    differs: 'Signing key does NOT match its certificate',
    differsDetail: (named: string, accepted: string) =>
      `key does NOT match certificate: ${named} holds another public key than the one that verified the signature; ${accepted}`,
    unreadable: 'Signing certificate unreadable',
    unreadableKey: (named: string) => `the public key of ${named} cannot be read`,
    unreadableCertificate: 'x5c[0] is not a readable X.509 certificate',
    unreadableDetail: (what: string, accepted: string) => `${what}, so the key was not compared; ${accepted}`,
    noCertificate: 'Signing key not compared with a certificate',
    noCertificateDetail: (accepted: string) => `the JWKS entry has no x5c certificate; ${accepted}`,
    notCompared: 'Signing key not compared with its certificate',
    notComparedDetail: 'this result was stored before the comparison was made',
    chainValidated: 'Certificate chain validated',
    chainValidatedDetail: (anchor: string, keyDiffers: boolean) =>
      `chain validated to ${anchor}${keyDiffers ? ' (for a certificate that does not hold the signing key)' : ''}, an IDV_TRUST_ANCHOR certificate: every signature, every validity period at the time of verification, the CA flag of each issuer in x5c; revocation not checked`,
    chainNotValid: 'Certificate chain NOT valid',
    chainNotValidDetail: (reason: string) => `chain NOT valid: ${reason}`,
    chainNotValidated: 'Certificate chain not validated',
    chainNoAnchor: 'chain not validated (no IDV_TRUST_ANCHOR configured): the certificate is shown as the service sent it, not trusted',
    chainStoredBefore: 'chain not validated (this result was stored before chains were checked)',
  },
};

export type ResultMessages = typeof en;

const nb: ResultMessages = {
  genders: { male: 'Mann', female: 'Kvinne', unknown: 'Ukjent', unspecified: 'Ikke oppgitt' },
  documentTypes: { passport: 'Pass', idcard: 'Nasjonalt ID-kort' },
  // the emulator's words for the same values (its identity app and authorization page)
  chipResults: { passed: 'bestått', failed: 'ikke bestått' },
  issuerCheckValues: { VALID: 'gyldig', INVALID: 'ugyldig', UNKNOWN: 'ukjent' },
  numericDate: (date, time) => `${date} kl.\u00a0${time}\u00a0UTC`,
  yearsOld: (years) => years,
  check: (method, organization, txn, time) =>
    `Kontroll: ${method}${organization ? ` utført av ${organization}` : ''}${txn ? `, transaksjon ${txn}` : ''}${time ? `, ${time}` : ''}`,
  attachment: (description, facts) => `Vedlegg: ${description ?? 'uten beskrivelse'} (${facts})`,
  embedded: (kib) => `innebygd, ${kib} KiB`,
  at: (url) => `på ${url}`,
  checks: {
    callback: [
      'Tilbakekallet hørte til denne nettleserens flyt',
      'state er lik verdien lagret i denne økten; iss kontrollert når den ble sendt (RFC 9207)',
    ] as [string, string],
    pkce: ['PKCE', 'tokenendepunktet godtok vår code_verifier for S256-code_challenge'] as [string, string],
    decrypted: 'Dekryptert med vår nøkkel',
    key: (kid) => `nøkkel ${kid}`,
    signature: 'Signaturen er verifisert',
    signatureDetail: (alg, kid) => `${alg} med tjenestens nøkkel ${kid} fra JWKS`,
    issuer: 'Utsteder',
    issuerDetail: (iss) => `iss = ${iss}, den konfigurerte utstederen`,
    audience: 'Mottaker',
    audienceDetail: (aud, clientId) => `aud = ${aud}, vår client_id ${clientId}`,
    expiry: 'Ikke utløpt',
    expiryDetail: (exp) => `exp ${exp} er fram i tid`,
    issuedAt: 'Ikke utstedt fram i tid',
    nonce: ['Nonce', 'er lik nonce i forespørselsobjektet vårt'] as [string, string],
    subject: 'Subjekt',
    subjectDetail: (sub) => `sub er med (${sub})`,
  },
  certificate: {
    named: (subject, issuer, serialIsKid) => `x5c[0] (${subject}, utstedt av ${issuer}, ${serialIsKid ? 'serienummer = kid' : 'serienummeret er ikke kid'})`,
    acceptedOnJwk: 'tokenet ble godtatt på JWKS-nøkkelen alene',
    matches: 'Signeringsnøkkelen samsvarer med sertifikatet',
    matchesDetail: (named) => `nøkkelen samsvarer med sertifikatet: ${named} har den offentlige nøkkelen som verifiserte signaturen`,
    differs: 'Signeringsnøkkelen samsvarer IKKE med sertifikatet',
    differsDetail: (named, accepted) =>
      `nøkkelen samsvarer IKKE med sertifikatet: ${named} har en annen offentlig nøkkel enn den som verifiserte signaturen; ${accepted}`,
    unreadable: 'Signeringssertifikatet kan ikke leses',
    unreadableKey: (named) => `den offentlige nøkkelen i ${named} kan ikke leses`,
    unreadableCertificate: 'x5c[0] er ikke et lesbart X.509-sertifikat',
    unreadableDetail: (what, accepted) => `${what}, så nøkkelen ble ikke sammenlignet; ${accepted}`,
    noCertificate: 'Signeringsnøkkelen er ikke sammenlignet med et sertifikat',
    noCertificateDetail: (accepted) => `JWKS-oppføringen har ikke noe x5c-sertifikat; ${accepted}`,
    notCompared: 'Signeringsnøkkelen er ikke sammenlignet med sertifikatet',
    notComparedDetail: 'dette resultatet ble lagret før sammenligningen ble gjort',
    chainValidated: 'Sertifikatkjeden er validert',
    chainValidatedDetail: (anchor, keyDiffers) =>
      `kjeden er validert til ${anchor}${keyDiffers ? ' (for et sertifikat som ikke har signeringsnøkkelen)' : ''}, et IDV_TRUST_ANCHOR-sertifikat: hver signatur, hver gyldighetsperiode på verifiseringstidspunktet og CA-flagget til hver utsteder i x5c; tilbakekalling er ikke kontrollert`,
    chainNotValid: 'Sertifikatkjeden er IKKE gyldig',
    chainNotValidDetail: (reason) => `kjeden er IKKE gyldig: ${reason}`,
    chainNotValidated: 'Sertifikatkjeden er ikke validert',
    chainNoAnchor: 'kjeden er ikke validert (ingen IDV_TRUST_ANCHOR er konfigurert): sertifikatet vises slik tjenesten sendte det, uten at det er klarert',
    chainStoredBefore: 'kjeden er ikke validert (dette resultatet ble lagret før kjeder ble kontrollert)',
  },
};

export const RESULT_MESSAGES: Record<Locale, ResultMessages> = { en, nb };
