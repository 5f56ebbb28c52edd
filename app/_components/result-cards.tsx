'use client';

/**
 * The cards of the result page: the person, the identity document, the population register, the
 * verification and the checks performed. Each renders a view model of lib/view/result-view and
 * says "not provided" or "not requested" rather than guess.
 *
 * Client components, though they only display: their props (the view models) travel in the
 * page's React payload as plain data, where server components would travel as their whole
 * element tree, every element and class name a second time beside the HTML (issue 10: the result
 * page at most 40 KiB). Masking is done on the server before (lib/view/masking.ts).
 */
import type { Check, DocumentView, IdentityView, PopulationRegisterView, VerificationView } from '@/lib/view/result-view';
import { Card } from './card';
import { FieldRow } from './field-row';
import { OutcomeList } from './outcome-list';

/** `blurPortrait`: presenter mode (lib/view/presenter.ts). */
export function PersonCard({ identity, blurPortrait = false }: { identity: IdentityView; blurPortrait?: boolean }) {
  return (
    <Card title="Person" id="person-heading">
      <div className="mt-4 flex flex-col gap-5 sm:flex-row">
        <div className="w-36 shrink-0 overflow-hidden rounded-lg">
          {identity.portrait.state === 'value' ? (
            // The verified portrait (/result/portrait, private and uncached); next/image adds nothing for it.
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={identity.portrait.src}
              alt={blurPortrait ? 'Portrait from the identity document, blurred (presenter mode)' : `Portrait from the identity document${identity.name.state === 'value' ? ` of ${identity.name.text}` : ''}`}
              width={144}
              height={192}
              className={`aspect-[3/4] w-36 rounded-lg border border-slate-200 bg-slate-100 object-cover ${blurPortrait ? 'presenter-blur' : ''}`}
              data-testid="portrait"
              data-blurred={blurPortrait ? 'true' : undefined}
            />
          ) : (
            <div className="grid aspect-[3/4] w-36 place-items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3 text-center text-sm text-slate-600">
              Portrait {identity.portrait.state === 'not_provided' ? 'not provided' : 'not requested'}
            </div>
          )}
        </div>
        <dl className="fields min-w-0 flex-1 divide-y divide-slate-100">
          <FieldRow label="Full name" field={identity.name} />
          <FieldRow label="Given name" field={identity.givenName} />
          <FieldRow label="Family name" field={identity.familyName} />
          <FieldRow label="Date of birth" field={identity.birthdate} />
          <FieldRow label="Gender" field={identity.gender} />
          <FieldRow label="Nationalities" field={identity.nationalities} />
        </dl>
      </div>
    </Card>
  );
}

/** `numbersRevealed`: whether the view's numbers came unmasked (the page's one switch). */
export function DocumentCard({ document, numbersRevealed }: { document: DocumentView; numbersRevealed: boolean }) {
  return (
    <Card title="Identity document" id="document-heading">
      {!document.requested ? (
        <p className="mt-3 text-sm text-slate-600">Document evidence was not requested.</p>
      ) : !document.provided ? (
        <p className="mt-3 text-sm italic text-amber-800">Document evidence was requested but not provided.</p>
      ) : (
        <dl className="fields mt-2 divide-y divide-slate-100">
          <FieldRow label="Type" field={document.type} />
          <FieldRow label="Number" field={document.number} masked revealed={numbersRevealed} />
          <FieldRow label="Issuing country" field={document.issuingCountry} />
          <FieldRow label="Issuing authority" field={document.issuingAuthority} />
          <FieldRow label="Date of issue" field={document.dateOfIssuance} />
          <div>
            <dt>Date of expiry</dt>
            <dd className="flex flex-wrap items-center gap-2">
              {document.dateOfExpiry.state === 'value' ? (
                <span className="value">{document.dateOfExpiry.text}</span>
              ) : (
                <span className="text-sm text-slate-500">{document.dateOfExpiry.state === 'not_provided' ? 'Not provided' : 'Not requested'}</span>
              )}
              {document.expired !== undefined && (
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${document.expired ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}>
                  {document.expired ? 'Expired' : 'Valid'}
                </span>
              )}
            </dd>
          </div>
          <FieldRow label="National identity number" field={document.personalNumber} masked revealed={numbersRevealed} />
          <FieldRow label="Chip authentication" field={document.chipAuthentication} />
          <FieldRow label="Issuer check" field={document.issuerCheck} />
        </dl>
      )}
      <EvidenceExtras lines={document.extras} testId="document-extras" />
    </Card>
  );
}

export function PopulationRegisterCard({ register, numbersRevealed }: { register: PopulationRegisterView; numbersRevealed: boolean }) {
  return (
    <Card title="Population register" id="register-heading">
      {register.provided ? (
        <dl className="fields mt-2 grid gap-x-8 sm:grid-cols-2">
          <FieldRow label="Register" field={register.source} />
          <FieldRow label="Matched national identity number" field={register.personalNumber} masked revealed={numbersRevealed} />
        </dl>
      ) : (
        <p className="mt-3 text-sm italic text-amber-800" data-testid="register-not-provided">
          Not provided: the register returned no match{register.lookedUp ? ` for ${register.lookedUp}` : ' for the document'}, or this client is not entitled to register data.
        </p>
      )}
      <EvidenceExtras lines={register.extras} testId="register-extras" />
    </Card>
  );
}

/** What OIDC4IDA 1.0 adds to an evidence (check details, attachments), as the provider sent it. */
function EvidenceExtras({ lines, testId }: { lines: string[]; testId: string }) {
  if (lines.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm text-slate-700" data-testid={testId}>
      {lines.map((line) => (
        <li key={line} className="break-words">{line}</li>
      ))}
    </ul>
  );
}

export function VerificationCard({ verification }: { verification: VerificationView }) {
  return (
    <Card title="Verification" id="verification-heading">
      <dl className="fields mt-2 grid gap-x-8 sm:grid-cols-2">
        <FieldRow label="Trust framework" field={verification.trustFramework} mono />
        <FieldRow label="Authentication context (acr)" field={verification.acr} mono />
        <FieldRow label="Methods (amr)" field={verification.amr} mono />
        <FieldRow label="Authenticated at (auth_time)" field={verification.authTime} />
        <FieldRow label="Subject (sub)" field={verification.subject} mono />
        {verification.verificationTime && <FieldRow label="Verified at (verification.time)" field={{ state: 'value', text: verification.verificationTime }} />}
        {verification.assuranceLevel && <FieldRow label="Assurance level" field={{ state: 'value', text: verification.assuranceLevel }} mono />}
      </dl>
    </Card>
  );
}

/**
 * How each outcome is marked: a failed check stands out, one not made says so (the colours are
 * the `.checks` rules of app/globals.css, by `data-outcome`).
 */
const OUTCOME_MARKS: Record<Check['outcome'], { mark: string; spoken: string }> = {
  passed: { mark: '✓', spoken: 'Passed' },
  failed: { mark: '✗', spoken: 'Failed' },
  not_checked: { mark: '–', spoken: 'Not checked' },
};

export function ChecksCard({ checks }: { checks: Check[] }) {
  const failed = checks.filter((check) => check.outcome === 'failed').length;
  return (
    <Card title="Checks performed" id="checks-heading">
      {failed > 0 && (
        <p className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-900" data-testid="checks-failed">
          {failed === 1 ? 'One check failed' : `${failed} checks failed`} (marked ✗). The ID token was still accepted: its signature verified with the key in the
          service’s JWKS, which is all the interface specification requires.
        </p>
      )}
      <OutcomeList
        testId="checks"
        items={checks.map((check) => ({ key: check.label, outcome: check.outcome, ...OUTCOME_MARKS[check.outcome], label: check.label, detail: check.detail }))}
      />
    </Card>
  );
}
