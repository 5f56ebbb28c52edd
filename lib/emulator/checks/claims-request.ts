/**
 * The `claims` request parameter (2.3; OpenID Connect for Identity Assurance §6): its structure is
 * checked here and turned into a small typed request that data minimisation works from.
 * At the default level unknown claim names and unknown members are ignored (OpenID Connect Core
 * §5.5); at the strict level (checks/levels.ts) they are refused, and a claim is requested only
 * as `{ "essential": boolean }`. Values of the wrong shape are refused with `invalid_request` at
 * both levels.
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
/** The population register's name by default (spec 2.3 shows only `<population_register_name>`; DECISIONS.md). */
export const POPULATION_REGISTER_NAME = 'Folkeregisteret';

/** A requested evidence element. @see spec 2.3 */
export type EvidenceRequest = { type: 'document'; details: DocumentDetail[] } | { type: 'electronic_record'; sourceName: string; personalNumber?: string };

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

/**
 * An object schema of the level: at the default level unknown members are ignored (OpenID Connect
 * Core §5.5); at the strict level the spec's shape is the whole shape, and any other member is
 * refused ("has unknown member").
 */
function objectOf<Shape extends z.ZodRawShape>(shape: Shape, strict: boolean) {
  return strict ? z.strictObject(shape) : z.object(shape);
}

/**
 * 2.3: a requested claim is `{ "essential": boolean }`. The default level also takes `null` and
 * an object without `essential` or with other members (OpenID Connect Core §5.5.1), as a request
 * for a voluntary claim.
 */
function claimRequestOf(strict: boolean) {
  return strict ? z.strictObject({ essential: z.boolean() }) : z.nullable(z.looseObject({ essential: z.boolean().optional() }));
}

/** 2.3: "each requested document detail is set to null". */
const detailRequest = z.null().optional();

/**
 * The document evidence element (2.3). `issuer` is an object of `country_code` and `name`, each
 * `null`; the default level also takes `issuer: null` for both.
 */
function documentEvidenceOf(strict: boolean) {
  const issuer = objectOf({ country_code: detailRequest, name: detailRequest }, strict);
  return objectOf(
    {
      type: objectOf({ value: z.literal('document') }, strict),
      document_details: objectOf(
        {
          type: detailRequest,
          document_number: detailRequest,
          date_of_issuance: detailRequest,
          date_of_expiry: detailRequest,
          issuer: (strict ? issuer : z.nullable(issuer)).optional(),
          personal_number: detailRequest,
          active_authentication_result: detailRequest,
          issuer_check: detailRequest,
        },
        strict,
      ),
    },
    strict,
  );
}

/** The requested details of a document element, whichever level read it. */
type DocumentDetailsRequest = z.infer<ReturnType<typeof documentEvidenceOf>>['document_details'];

/**
 * The schema of a claims request at one level, whose population register is called
 * `populationRegisterName` (spec 2.3 gives only `<population_register_name>`; the emulator's
 * setting, default POPULATION_REGISTER_NAME). Made once per name and level.
 */
function claimsSchemaFor(populationRegisterName: string, strict: boolean) {
  const documentEvidence = documentEvidenceOf(strict);
  const electronicRecordEvidence = objectOf(
    {
      type: objectOf({ value: z.literal('electronic_record') }, strict),
      record: objectOf(
        {
          type: objectOf({ value: z.enum(ELECTRONIC_RECORD_TYPES) }, strict),
          source: objectOf({ name: z.literal(populationRegisterName) }, strict),
          personal_number: z
            .string()
            .regex(/^\d{11}$/, { error: 'must be an 11-digit Norwegian national number' })
            .optional(),
        },
        strict,
      ),
    },
    strict,
  );

  /** Reads `type.value` first, so a mistake is reported against the element type that was meant. */
  const evidenceElement = z.looseObject({ type: z.looseObject({ value: z.enum(EVIDENCE_TYPES) }) }).transform((element, ctx): EvidenceRequest => {
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
          ...(result.data.record.personal_number === undefined ? {} : { personalNumber: result.data.record.personal_number }),
        };
  });

  const claimRequest = claimRequestOf(strict);
  const claimsSchema = objectOf(
    {
      id_token: objectOf(
        {
          verified_claims: objectOf(
            {
              verification: objectOf(
                {
                  trust_framework: objectOf({ value: z.enum(TRUST_FRAMEWORKS) }, strict),
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
                },
                strict,
              ),
              // The seven names of 2.3; others are ignored at the default level, refused at the strict one.
              claims: objectOf(Object.fromEntries(CLAIM_NAMES.map((name) => [name, claimRequest.optional()])), strict),
            },
            strict,
          ).superRefine((verifiedClaims, ctx) => {
            // 2.3: standard_etsi "Requires given_name and family_name to be requested".
            const requested = verifiedClaims.claims;
            if (verifiedClaims.verification.trust_framework.value === 'standard_etsi' && !('given_name' in requested && 'family_name' in requested)) {
              ctx.addIssue({
                code: 'custom',
                path: ['claims'],
                message: 'the standard_etsi trust framework requires given_name and family_name to be requested',
              });
            }
          }),
        },
        strict,
      ),
    },
    strict,
  );
  return claimsSchema;
}

const claimsSchemas = new Map<string, ReturnType<typeof claimsSchemaFor>>();

function requestedDetails(details: DocumentDetailsRequest): DocumentDetail[] {
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
 * @param options.populationRegisterName the name register evidence must carry (default POPULATION_REGISTER_NAME)
 * @param options.strict the level (checks/levels.ts): by default unknown names and members are
 *   ignored and a claim may be requested as `null`; at the strict level only the shape of 2.3 is
 *   accepted
 * @throws InvalidRequest naming the path at fault, e.g.
 *   `claims.id_token.verified_claims.verification.trust_framework.value: must be one of ...`
 * @see spec 2.3
 */
export function parseClaimsRequest(
  claims: unknown,
  { populationRegisterName = POPULATION_REGISTER_NAME, strict = false }: { populationRegisterName?: string; strict?: boolean } = {},
): ClaimsRequest {
  const key = `${strict ? 'strict' : 'default'}:${populationRegisterName}`;
  let schema = claimsSchemas.get(key);
  if (!schema) {
    schema = claimsSchemaFor(populationRegisterName, strict);
    claimsSchemas.set(key, schema);
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
