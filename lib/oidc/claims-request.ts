/**
 * The `claims` request parameter (2.3; OpenID Connect for Identity Assurance §6), built from a
 * typed selection so that only what was chosen is requested (data minimisation, part 1).
 *
 * Copy with: types.ts.
 */
import { CLAIM_NAMES, DOCUMENT_DETAILS, POPULATION_REGISTER_NAME, type ClaimName, type DocumentDetail, type Selection } from './types.ts';

/** Request syntax: a requested document detail is `null` (2.3 "Document evidence element"). */
type DetailsRequest = Record<string, null | Record<string, null>>;

/**
 * A request for document evidence: each requested detail is `null` ("return this value").
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export interface DocumentEvidenceRequest {
  type: { value: 'document' };
  document_details: DetailsRequest;
}

/**
 * A request for population register evidence (2.3 "Electronic record evidence element"); only
 * for clients with a contract for it. `personal_number` is the 11-digit number to look up.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export interface ElectronicRecordEvidenceRequest {
  type: { value: 'electronic_record' };
  record: {
    type: { value: 'population_register' };
    source: { name: string };
    personal_number?: string;
  };
}

/**
 * The `claims` parameter of the request object: `id_token.verified_claims` with `verification`
 * (trust framework, optional evidence) and `claims` (each with its `essential` flag).
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClaimsParameter
 */
export interface ClaimsRequest {
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: { value: string };
        evidence?: Array<DocumentEvidenceRequest | ElectronicRecordEvidenceRequest>;
      };
      claims: Partial<Record<ClaimName, { essential: boolean }>>;
    };
  };
}

/**
 * The default selection: everything a demo shows, from the document, without the register.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 */
export const DEFAULT_SELECTION: Selection = {
  trustFramework: 'standard',
  claims: {
    name: { essential: true },
    given_name: { essential: true },
    family_name: { essential: true },
    birthdate: { essential: true },
    picture: { essential: false },
    gender: { essential: false },
    nationalities: { essential: false },
  },
  document: { details: [...DOCUMENT_DETAILS] },
};

/** Document details as request syntax: `issuer.name` becomes `{ issuer: { name: null } }`. */
function documentDetailsRequest(details: readonly DocumentDetail[]): DetailsRequest {
  const request: DetailsRequest = {};
  for (const detail of details) {
    const [head, member] = detail.split('.') as [string, string | undefined];
    if (member === undefined) {
      request[head] = null;
    } else {
      const nested = request[head];
      request[head] = { ...(nested && typeof nested === 'object' ? nested : {}), [member]: null };
    }
  }
  return request;
}

/**
 * What the service calls things the spec leaves open.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 */
export interface ClaimsRequestOptions {
  /**
   * The population register's name for `record.source.name` (2.3 shows only
   * `<population_register_name>`): POPULATION_REGISTER_NAME, 'Folkeregisteret', unless given.
   */
  populationRegisterName?: string;
}

/**
 * Builds the claims parameter for a selection. Claims keep the picker's order of 2.3; evidence is
 * omitted entirely when none was chosen (2.3: "Omit it when only identity claims are needed").
 * It does not check the selection: see `selectionProblems`.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IndividualClaimsRequests
 */
export function buildClaimsRequest(selection: Selection, options: ClaimsRequestOptions = {}): ClaimsRequest {
  const claims: Partial<Record<ClaimName, { essential: boolean }>> = {};
  for (const name of CLAIM_NAMES) {
    const requested = selection.claims[name];
    if (requested) claims[name] = { essential: requested.essential };
  }

  const evidence: Array<DocumentEvidenceRequest | ElectronicRecordEvidenceRequest> = [];
  if (selection.document) {
    evidence.push({ type: { value: 'document' }, document_details: documentDetailsRequest(selection.document.details) });
  }
  if (selection.populationRegister) {
    const { personalNumber } = selection.populationRegister;
    evidence.push({
      type: { value: 'electronic_record' },
      record: {
        type: { value: 'population_register' },
        source: { name: options.populationRegisterName ?? POPULATION_REGISTER_NAME },
        ...(personalNumber ? { personal_number: personalNumber } : {}),
      },
    });
  }

  return {
    id_token: {
      verified_claims: {
        verification: {
          trust_framework: { value: selection.trustFramework },
          ...(evidence.length > 0 ? { evidence } : {}),
        },
        claims,
      },
    },
  };
}

/** What the service's rules refuse in a selection, as stable codes (the UI maps them to text). */
export type SelectionProblem = 'nothing_requested' | 'etsi_requires_names' | 'personal_number_not_11_digits';

/** English sentences for the codes of `selectionProblemCodes`. */
export const SELECTION_PROBLEM_TEXT: Record<SelectionProblem, string> = {
  nothing_requested: 'Request at least one claim or one kind of evidence.',
  etsi_requires_names: 'The standard_etsi trust framework requires given_name and family_name to be requested.',
  personal_number_not_11_digits: 'The personal number to look up must be 11 digits.',
};

/** The codes of what the service will refuse in `selection` (spec 2.3), in the order shown. */
export function selectionProblemCodes(selection: Selection): SelectionProblem[] {
  const problems: SelectionProblem[] = [];
  if (Object.keys(selection.claims).length === 0 && !selection.document && !selection.populationRegister) problems.push('nothing_requested');
  if (selection.trustFramework === 'standard_etsi' && !(selection.claims.given_name && selection.claims.family_name)) problems.push('etsi_requires_names');
  const personalNumber = selection.populationRegister?.personalNumber;
  if (personalNumber !== undefined && !/^\d{11}$/.test(personalNumber)) problems.push('personal_number_not_11_digits');
  return problems;
}

/**
 * Rules the service enforces on a selection, as English sentences (`selectionProblemCodes` for their codes), so that a mistake is
 * explained before it is sent (2.3: ETSI requires given and family names).
 * @returns one sentence per problem; empty when the selection can be sent
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 */
export function selectionProblems(selection: Selection): string[] {
  return selectionProblemCodes(selection).map((code) => SELECTION_PROBLEM_TEXT[code]);
}
