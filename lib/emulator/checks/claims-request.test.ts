import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../errors';
import { parseClaimsRequest } from './claims-request';

const request = (verification: unknown, claims: unknown = {}) => ({ id_token: { verified_claims: { verification, claims } } });

describe('parseClaimsRequest (spec 2.3)', () => {
  it('reads the trust framework, the known claims with their essential flag, and the evidence', () => {
    expect(
      parseClaimsRequest(
        request(
          {
            trust_framework: { value: 'standard' },
            evidence: [
              { type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, personal_number: '14038726421' } },
              { type: { value: 'document' }, document_details: { date_of_expiry: null, type: null, issuer: { name: null }, shoe_size: null }, method: 'pipp' },
            ],
          },
          { birthdate: null, given_name: { essential: true }, email: null, picture: { essential: false, purpose: 'to show it' } },
        ),
      ),
    ).toEqual({
      trustFramework: 'standard',
      claims: [
        { name: 'given_name', essential: true },
        { name: 'picture', essential: false },
        { name: 'birthdate', essential: false },
      ],
      evidence: [
        { type: 'electronic_record', sourceName: 'Folkeregisteret', personalNumber: '14038726421' },
        { type: 'document', details: ['type', 'date_of_expiry', 'issuer.name'] },
      ],
    });
  });

  it('takes the population register by the name it is configured with, and refuses the default name then', () => {
    const register = (name: string) =>
      request({ trust_framework: { value: 'standard' }, evidence: [{ type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name } } }] });
    expect(parseClaimsRequest(register('Det sentrale folkeregister'), 'Det sentrale folkeregister').evidence).toEqual([
      { type: 'electronic_record', sourceName: 'Det sentrale folkeregister' },
    ]);
    expect(() => parseClaimsRequest(register('Folkeregisteret'), 'Det sentrale folkeregister')).toThrow(
      /record\.source\.name: must be 'Det sentrale folkeregister'/,
    );
    expect(() => parseClaimsRequest(register('Det sentrale folkeregister'))).toThrow(/must be 'Folkeregisteret'/);
  });

  it('reads issuer: null as a request for both issuer members', () => {
    const parsed = parseClaimsRequest(
      request({ trust_framework: { value: 'standard' }, evidence: [{ type: { value: 'document' }, document_details: { issuer: null } }] }),
    );
    expect(parsed.evidence).toEqual([{ type: 'document', details: ['issuer.country_code', 'issuer.name'] }]);
  });

  it('returns no evidence when evidence is omitted, and accepts an empty claims object', () => {
    expect(parseClaimsRequest(request({ trust_framework: { value: 'standard' } }))).toEqual({
      trustFramework: 'standard',
      claims: [],
      evidence: [],
    });
  });

  it.each([null, 'claims', 42, [], {}, { id_token: null }, { id_token: { verified_claims: { claims: {} } } }])(
    'refuses %j with InvalidRequest',
    (claims) => {
      expect(() => parseClaimsRequest(claims)).toThrow(InvalidRequest);
    },
  );
});
