/** Human names for the claims and document details of spec 2.3, in each language (lib/i18n). */
import type { ClaimName, DocumentDetail } from '@/lib/oidc';
import type { Locale } from '@/lib/i18n/locale';

export const CLAIM_LABELS: Record<Locale, Record<ClaimName, string>> = {
  en: {
    name: 'Full name',
    given_name: 'Given name',
    family_name: 'Family name',
    picture: 'Portrait',
    gender: 'Gender',
    birthdate: 'Date of birth',
    nationalities: 'Nationalities',
  },
  nb: {
    name: 'Fullt navn',
    given_name: 'Fornavn',
    family_name: 'Etternavn',
    picture: 'Portrett',
    gender: 'Kjønn',
    birthdate: 'Fødselsdato',
    nationalities: 'Statsborgerskap',
  },
};

export const DOCUMENT_DETAIL_LABELS: Record<Locale, Record<DocumentDetail, string>> = {
  en: {
    type: 'Document type',
    document_number: 'Document number',
    date_of_issuance: 'Date of issue',
    date_of_expiry: 'Date of expiry',
    'issuer.country_code': 'Issuing country',
    'issuer.name': 'Issuing authority',
    personal_number: 'National identity number',
    active_authentication_result: 'Chip authentication',
    issuer_check: 'Issuer check',
  },
  nb: {
    type: 'Dokumenttype',
    document_number: 'Dokumentnummer',
    date_of_issuance: 'Utstedelsesdato',
    date_of_expiry: 'Utløpsdato',
    'issuer.country_code': 'Utstedende land',
    'issuer.name': 'Utstedende myndighet',
    personal_number: 'Identitetsnummer',
    active_authentication_result: 'Brikkeautentisering',
    issuer_check: 'Utstederkontroll',
  },
};
