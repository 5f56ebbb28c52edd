/**
 * What the relying party finds out about the certificate of the key that signed an ID token
 * (`x5c` of its JWKS entry, spec 2.7), once the token is accepted: never a reason to refuse it
 * (the spec does not require `x5c`), shown on the result page and judged by the verdict's
 * `signing_certificate` rule. Types only: lib/server/certificate.ts reads certificates.
 */

/** A certificate as the result page and the trace name it. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256Fingerprint: string;
}

/** The chain of the signing certificate, validated up to IDV_TRUST_ANCHOR when one is configured. */
export type ChainValidation =
  | { state: 'validated'; /** the subject of the trust anchor the chain ends at */ anchor: string }
  | { state: 'not_valid'; reason: string }
  | { state: 'not_validated' };

/**
 * What was checked of the signing key's certificate when the result was made. `key`: x5c[0]'s
 * public key compared with the JWK that verified the signature (`no_certificate`: the entry has
 * no x5c; `unreadable`: x5c[0] or its key cannot be read).
 */
export interface SigningCertificateCheck {
  key: 'matches' | 'differs' | 'no_certificate' | 'unreadable';
  chain: ChainValidation;
}
