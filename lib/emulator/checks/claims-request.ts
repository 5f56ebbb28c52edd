/**
 * The `claims` request parameter (2.3; OpenID Connect for Identity Assurance §6): its structure is
 * checked here and turned into a small typed request that data minimisation works from.
 * Unknown claim names and unknown members are ignored (OpenID Connect Core §5.5); values of the
 * wrong shape are refused with `invalid_request`.
 * @see spec 2.3
 */
import { z } from 'zod';
import { InvalidRequest, describeIssue, issueMessage } from '../errors';

/** 2.3 trust framework values. */
export const TRUST_FRAMEWORKS = ['standard', 'standard_etsi'] as const;
export type TrustFramework = (typeof TRUST_FRAMEWORKS)[number];

/** 2.3 "Verified claims fields". */
export const CLAIM_NAMES = ['name', 'given_name', 'family_name', 'picture', 'gender', 'birthdate', 'nationalities'] as const;
export type ClaimName = (typeof CLAIM_NAMES)[number];

/** 2.3 "Document evidence element", with the two `issuer` members as paths. */
export const DOCUMENT_DETAILS = [
  'type',
  'document_number',
  'date_of_issuance',
  'date_of_expiry',
  'issuer.country_code',
  'issuer.name',
  'personal_number',
  'active_authentication_result',
  'issuer_check',
] as const;
export type DocumentDetail = (typeof DOCUMENT_DETAILS)[number];

/** 2.3 evidence types, document types and the one electronic record type. */
export const EVIDENCE_TYPES = ['document', 'electronic_record'] as const;
export const DOCUMENT_TYPES = ['passport', 'idcard'] as const;
export const ELECTRONIC_RECORD_TYPES = ['population_register'] as const;
/** 2.3: "the name of the Norwegian population register" */
/** The population register's name by default (spec 2.3 shows only `<population_register_name>`; DECISIONS.md). */
export const POPULATION_REGISTER_NAME = 'Folkeregisteret';

/** A requested evidence element. @see spec 2.3 */
export type EvidenceRequest =
  | { type: 'document'; details: DocumentDetail[] }
  | { type: 'electronic_record'; sourceName: string; personalNumber?: string };

/**
 * A checked claims request: what the client asked for, and nothing it could not have meant.
 * @see spec 2.3
 */
export interface ClaimsRequest {
  trustFramework: TrustFramework;
  /** requested claims the service knows, in the order of 2.3 */
  claims: Array<{ name: ClaimName; essential: boolean }>;
  /** requested evidence, in request order; empty when `evidence` was omitted */
  evidence: EvidenceRequest[];
}

/** 2.3: a requested claim is `null` or `{ "essential": boolean }`. */
const claimRequest = z.nullable(z.looseObject({ essential: z.boolean().optional() }));

/** 2.3: "each requested document detail is set to null". */
const detailRequest = z.null().optional();

const documentEvidence = z.object({
  type: z.object({ value: z.literal('document') }),
  document_details: z.object({
    type: detailRequest,
    document_number: detailRequest,
    date_of_issuance: detailRequest,
    date_of_expiry: detailRequest,
    issuer: z.nullable(z.object({ country_code: detailRequest, name: detailRequest })).optional(),
    personal_number: detailRequest,
    active_authentication_result: detailRequest,
    issuer_check: detailRequest,
  }),
});

/**
 * The schema of a claims request whose population register is called `populationRegisterName`
 * (spec 2.3 gives only `<population_register_name>`; the emulator's setting, default
 * POPULATION_REGISTER_NAME). Made once per name.
 */
function claimsSchemaFor(populationRegisterName: string) {
  const electronicRecordEvidence = z.object({
    type: z.object({ value: z.literal('electronic_record') }),
    record: z.object({
      type: z.object({ value: z.enum(ELECTRONIC_RECORD_TYPES) }),
      source: z.object({ name: z.literal(populationRegisterName) }),
      personal_number: z
        .string()
        .regex(/^\d{11}$/, { error: 'must be an 11-digit Norwegian national number' })
        .optional(),
    }),
  });

  /** Reads `type.value` first, so a mistake is reported against the element type that was meant. */
  const evidenceElement = z
    .looseObject({ type: z.looseObject({ value: z.enum(EVIDENCE_TYPES) }) })
    .transform((element, ctx): EvidenceRequest => {
      const result =
        element.type.value === 'document'
          ? documentEvidence.safeParse(element, { error: issueMessage, reportInput: true })
          : electronicRecordEvidence.safeParse(element, { error: issueMessage, reportInput: true });
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: 'custom' });
        return z.NEVER;
      }
      return 'document_details' in result.data
        ? { type: 'document', details: requestedDetails(result.data.document_details) }
        : {
            type: 'electronic_record',
            sourceName: result.data.record.source.name,
            ...(result.data.record.personal_number === undefined
              ? {}
              : { personalNumber: result.data.record.personal_number }),
          };
    });

  const claimsSchema = z.object({
    id_token: z.object({
      verified_claims: z
        .object({
          verification: z.object({
            trust_framework: z.object({ value: z.enum(TRUST_FRAMEWORKS) }),
            evidence: z
              .array(evidenceElement)
              .min(1, { error: 'must not be empty; omit it when only identity claims are needed' })
              .superRefine((elements, ctx) => {
                const seen = new Set<string>();
                elements.forEach((element, index) => {
                  if (seen.has(element.type)) {
                    ctx.addIssue({ code: 'custom', path: [index], message: `requests '${element.type}' evidence twice` });
                  }
                  seen.add(element.type);
                });
              })
              .optional(),
          }),
          claims: z.object(Object.fromEntries(CLAIM_NAMES.map((name) => [name, claimRequest.optional()]))),
        })
        .superRefine((verifiedClaims, ctx) => {
          // 2.3: standard_etsi "Requires given_name and family_name to be requested".
          const requested = verifiedClaims.claims;
          if (
            verifiedClaims.verification.trust_framework.value === 'standard_etsi' &&
            !('given_name' in requested && 'family_name' in requested)
          ) {
            ctx.addIssue({
              code: 'custom',
              path: ['claims'],
              message: 'the standard_etsi trust framework requires given_name and family_name to be requested',
            });
          }
        }),
    }),
  });
  return claimsSchema;
}

const claimsSchemas = new Map<string, ReturnType<typeof claimsSchemaFor>>();

function requestedDetails(details: z.infer<typeof documentEvidence>['document_details']): DocumentDetail[] {
  const requested: DocumentDetail[] = [];
  for (const detail of DOCUMENT_DETAILS) {
    const [head, member] = detail.split('.') as [keyof typeof details, string | undefined];
    if (!(head in details)) continue;
    const value = details[head];
    // `issuer: null` asks for the whole issuer; `issuer: { name: null }` for one member.
    if (member === undefined || value === null || (typeof value === 'object' && member in value)) {
      requested.push(detail);
    }
  }
  return requested;
}

/**
 * Checks the `claims` member of a request object and returns what it asks for.
 * @throws InvalidRequest naming the path at fault, e.g.
 *   `claims.id_token.verified_claims.verification.trust_framework.value: must be one of ...`
 * @see spec 2.3
 */
export function parseClaimsRequest(claims: unknown, populationRegisterName: string = POPULATION_REGISTER_NAME): ClaimsRequest {
  let schema = claimsSchemas.get(populationRegisterName);
  if (!schema) {
    schema = claimsSchemaFor(populationRegisterName);
    claimsSchemas.set(populationRegisterName, schema);
  }
  const result = schema.safeParse(claims, { error: issueMessage, reportInput: true });
  if (!result.success) {
    throw new InvalidRequest(`request object claim ${describeIssue(result.error.issues[0]!, 'claims')}`);
  }
  const { verification, claims: requestedClaims } = result.data.id_token.verified_claims;
  return {
    trustFramework: verification.trust_framework.value,
    claims: Object.keys(requestedClaims)
      .filter((name): name is ClaimName => (CLAIM_NAMES as readonly string[]).includes(name))
      .map((name) => ({ name, essential: requestedClaims[name]?.essential === true })),
    evidence: verification.evidence ?? [],
  };
}
