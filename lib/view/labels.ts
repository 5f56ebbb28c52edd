import type { ClaimName, DocumentDetail } from '@/lib/oidc';

/** Human names for the claims of spec 2.3. */
export const CLAIM_LABELS: Record<ClaimName, string> = {
  name: 'Full name',
  given_name: 'Given name',
  family_name: 'Family name',
  picture: 'Portrait',
  gender: 'Gender',
  birthdate: 'Date of birth',
  nationalities: 'Nationalities',
};

/** Human names for the document details of spec 2.3. */
export const DOCUMENT_DETAIL_LABELS: Record<DocumentDetail, string> = {
  type: 'Document type',
  document_number: 'Document number',
  date_of_issuance: 'Date of issue',
  date_of_expiry: 'Date of expiry',
  'issuer.country_code': 'Issuing country',
  'issuer.name': 'Issuing authority',
  personal_number: 'National identity number',
  active_authentication_result: 'Chip authentication',
  issuer_check: 'Issuer check',
};
