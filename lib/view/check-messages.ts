/**
 * The words of the ID token's checks (lib/view/checks-view.ts) in the trace and on the failure
 * page, in each language (lib/i18n). Claim, header and algorithm names, key IDs, codes and the
 * values compared are never translated; only the words around them are. Times are written as
 * UTC timestamps, the same in every language.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { IdTokenCheckName, KeySource } from '@/lib/oidc/checks';
import type { DropReason } from '@/lib/oidc/verified-claims';

const en = {
  /** The title of the trace entry that lists the checks. */
  title: 'ID token checks',
  /** The title when one failed. */
  titleFailed: (label: string) => `ID token checks: ${label} failed`,
  /** Each check's name. */
  labels: {
    jwe_header: 'Encryption (JWE header)',
    decryption: 'Decryption with our key',
    jws_header: 'Signature algorithm (JWS header)',
    signing_key: 'Signing key (kid)',
    signature: 'Signature',
    payload: 'Payload',
    iss: 'Issuer (iss)',
    aud: 'Audience (aud)',
    exp: 'Expiry (exp)',
    iat: 'Issued at (iat)',
    nonce: 'Nonce',
    sub: 'Subject (sub)',
    verified_claims: 'Verified claims',
  } satisfies Record<IdTokenCheckName, string>,
  absent: '(absent)',
  oneOf: (list: string) => `one of ${list}`,
  ourKey: (kid: string) => `our encryption key, kid "${kid}"`,
  encryptedTo: (kid: string | undefined) => (kid === undefined ? 'no kid in the header' : `kid "${kid}"`),
  notEncrypted: (parts: number) => (parts === 3 ? 'a signed JWT (JWS, 3 parts), not encrypted' : `${parts} parts, not a compact JWE (5 parts)`),
  notJws: (parts: number) => `${parts} parts, not a compact JWS (3 parts)`,
  algAndKid: (alg: string) => `alg ${alg}, and a kid`,
  keyWithKid: (kid: string) => `a key with kid "${kid}" in the JWKS`,
  keySources: {
    cache: 'From the cached key set.',
    fetched: 'From the key set fetched for this token.',
    refetched: 'From the key set fetched again for this kid, which the cached set lacked (key rotation).',
    stale: 'From the last good key set: fetching a fresh one failed.',
  } satisfies Record<KeySource, string>,
  published: (kids: string) => `The JWKS publishes: ${kids}.`,
  publishedNone: 'The JWKS publishes no key.',
  signatureBy: (alg: string, kid: string) => `a valid ${alg} signature by key "${kid}"`,
  jsonObject: 'a JSON object',
  after: (limit: string, now: string, tolerance: number) => `later than ${limit} (now, ${now}, minus ${tolerance} s of clock tolerance)`,
  notAfter: (limit: string, now: string, tolerance: number) => `no later than ${limit} (now, ${now}, plus ${tolerance} s of clock tolerance)`,
  nonceSent: (masked: string) => `the nonce we sent: ${masked}`,
  nonEmptyText: 'a non-empty string',
  elementsRead: (count: number) => `${count === 1 ? 'One element' : `${count} elements`} read.`,
  nothingDropped: 'Nothing dropped.',
  dropped: (count: number) => `${count === 1 ? 'One member' : `${count} members`} dropped:`,
  reasons: {
    not_an_object: 'not an object',
    not_text: 'not a non-empty string',
    not_a_date: 'not a date (YYYY-MM-DD)',
    not_a_date_time: 'not an ISO 8601 date-time',
    not_a_country_code: 'not an ISO 3166-1 alpha-3 country code',
    not_a_portrait: 'not a base64 data:image/jpeg or data:image/png URI',
    not_a_list: 'not a list',
    unknown_evidence_type: 'an evidence type this app does not read',
    no_check_method: 'a check detail without check_method',
    not_an_attachment: 'an attachment with neither base64 content nor an https URL',
    over_the_limit: 'beyond the first 20',
    unknown_member: 'a member this app does not read (ignored)',
  } satisfies Record<DropReason, string>,
  /** Near the top of the failure page: the check that failed. */
  failedCheck: 'The check that failed',
};

export type CheckMessages = typeof en;

const nb: CheckMessages = {
  title: 'Kontroller av ID-tokenet',
  titleFailed: (label) => `Kontroller av ID-tokenet: ${label} feilet`,
  labels: {
    jwe_header: 'Kryptering (JWE-header)',
    decryption: 'Dekryptering med vår nøkkel',
    jws_header: 'Signaturalgoritme (JWS-header)',
    signing_key: 'Signeringsnøkkel (kid)',
    signature: 'Signatur',
    payload: 'Payload (nyttelast)',
    iss: 'Utsteder (iss)',
    aud: 'Mottaker (aud)',
    exp: 'Utløp (exp)',
    iat: 'Utstedt (iat)',
    nonce: 'Nonce',
    sub: 'Subjekt (sub)',
    verified_claims: 'Verifiserte opplysninger',
  },
  absent: '(mangler)',
  oneOf: (list) => `én av ${list}`,
  ourKey: (kid) => `vår krypteringsnøkkel, kid «${kid}»`,
  encryptedTo: (kid) => (kid === undefined ? 'ingen kid i headeren' : `kid «${kid}»`),
  notEncrypted: (parts) => (parts === 3 ? 'en signert JWT (JWS, 3 deler), ikke kryptert' : `${parts} deler, ikke en kompakt JWE (5 deler)`),
  notJws: (parts) => `${parts} deler, ikke en kompakt JWS (3 deler)`,
  algAndKid: (alg) => `alg ${alg}, og en kid`,
  keyWithKid: (kid) => `en nøkkel med kid «${kid}» i JWKS`,
  keySources: {
    cache: 'Fra nøkkelsettet i cachen.',
    fetched: 'Fra nøkkelsettet som ble hentet for dette tokenet.',
    refetched: 'Fra nøkkelsettet som ble hentet på nytt for denne kid-en, som settet i cachen manglet (nøkkelrotasjon).',
    stale: 'Fra det siste gode nøkkelsettet: å hente et nytt feilet.',
  },
  published: (kids) => `JWKS publiserer: ${kids}.`,
  publishedNone: 'JWKS publiserer ingen nøkkel.',
  signatureBy: (alg, kid) => `en gyldig ${alg}-signatur med nøkkelen «${kid}»`,
  jsonObject: 'et JSON-objekt',
  after: (limit, now, tolerance) => `senere enn ${limit} (nå, ${now}, minus ${tolerance} s klokketoleranse)`,
  notAfter: (limit, now, tolerance) => `ikke senere enn ${limit} (nå, ${now}, pluss ${tolerance} s klokketoleranse)`,
  nonceSent: (masked) => `noncen vi sendte: ${masked}`,
  nonEmptyText: 'en streng som ikke er tom',
  elementsRead: (count) => `${count === 1 ? 'Ett element' : `${count} elementer`} lest.`,
  nothingDropped: 'Ingenting utelatt.',
  dropped: (count) => `${count === 1 ? 'Ett medlem' : `${count} medlemmer`} utelatt:`,
  reasons: {
    not_an_object: 'ikke et objekt',
    not_text: 'ikke en streng med innhold',
    not_a_date: 'ikke en dato (ÅÅÅÅ-MM-DD)',
    not_a_date_time: 'ikke et ISO 8601-tidspunkt',
    not_a_country_code: 'ikke en landkode etter ISO 3166-1 alpha-3',
    not_a_portrait: 'ikke en base64 data:image/jpeg- eller data:image/png-URI',
    not_a_list: 'ikke en liste',
    unknown_evidence_type: 'en dokumentasjonstype denne appen ikke leser',
    no_check_method: 'en kontrolldetalj uten check_method',
    not_an_attachment: 'et vedlegg uten verken base64-innhold eller en https-URL',
    over_the_limit: 'utover de 20 første',
    unknown_member: 'et medlem denne appen ikke leser (ignorert)',
  },
  failedCheck: 'Kontrollen som feilet',
};

export const CHECK_MESSAGES: Record<Locale, CheckMessages> = { en, nb };
