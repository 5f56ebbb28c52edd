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
import type { Locale } from '@/lib/i18n/locale';
import { CARDS_MESSAGES } from '@/lib/view/cards-messages';
import type { Check, DocumentView, IdentityView, PopulationRegisterView, VerificationView } from '@/lib/view/result-view';
import { Card } from './card';
import { FieldRow, NotRequested, wasRequested } from './field-row';
import { OutcomeList } from './outcome-list';

/**
 * The person, first on the page: the portrait beside the name (the page's heading) and the other
 * claims, each label above its value so that names and dates keep a line of their own at any
 * width. The full name is the heading when it came back; otherwise the heading says it was not
 * requested or not provided (never a name put together from the others, nor "Verified", which is
 * the verdict's to say). `blurPortrait`: presenter mode (lib/view/presenter.ts).
 */
export function PersonCard({ identity, blurPortrait = false, locale }: { identity: IdentityView; blurPortrait?: boolean; locale: Locale }) {
  const t = CARDS_MESSAGES[locale];
  const name = identity.name.state === 'value' ? identity.name.text : undefined;
  const facts = [
    ...(name === undefined ? [{ label: t.fullName, field: identity.name }] : []),
    { label: t.givenName, field: identity.givenName },
    { label: t.familyName, field: identity.familyName },
    { label: t.birthdate, field: identity.birthdate },
    { label: t.gender, field: identity.gender },
    { label: t.nationalities, field: identity.nationalities },
  ];
  return (
    <section aria-labelledby="person-heading" className="card person" data-testid="person">
      <p id="person-heading" className="person-eyebrow">
        {t.person}
      </p>
      <h1 className="person-name" data-testid="person-name">
        {name ?? t.nameMissing(identity.name.state === 'not_provided')}
      </h1>
      <div className="person-portrait">
        {identity.portrait.state === 'value' ? (
          // The verified portrait (/result/portrait, private and uncached); next/image adds nothing for it.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={identity.portrait.src}
            alt={blurPortrait ? t.portraitBlurred : t.portraitOf(name)}
            width={144}
            height={192}
            className={`aspect-[3/4] w-full rounded-lg border border-slate-200 bg-slate-100 object-cover ${blurPortrait ? 'presenter-blur' : ''}`}
            data-testid="portrait"
            data-blurred={blurPortrait ? 'true' : undefined}
          />
        ) : (
          <div className="grid aspect-[3/4] w-full place-items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 p-2 text-center text-xs text-slate-600 sm:text-sm">
            {t.portraitMissing(identity.portrait.state === 'not_provided')}
          </div>
        )}
      </div>
      <div className="person-facts">
        <dl className="facts" data-testid="person-facts">
          {facts.filter(wasRequested).map(({ label, field }) => (
            <FieldRow key={label} label={label} field={field} locale={locale} />
          ))}
        </dl>
        <NotRequested rows={facts} className="mt-3" locale={locale} />
      </div>
    </section>
  );
}

/** `numbersRevealed`: whether the view's numbers came unmasked (the page's one switch). */
export function DocumentCard({ document, numbersRevealed, locale }: { document: DocumentView; numbersRevealed: boolean; locale: Locale }) {
  const t = CARDS_MESSAGES[locale];
  const rows = [
    { label: t.type, field: document.type },
    { label: t.number, field: document.number, masked: true },
    { label: t.issuingCountry, field: document.issuingCountry },
    { label: t.issuingAuthority, field: document.issuingAuthority },
    { label: t.dateOfIssue, field: document.dateOfIssuance },
    { label: t.dateOfExpiry, field: document.dateOfExpiry, expiry: true },
    { label: t.nationalNumber, field: document.personalNumber, masked: true },
    { label: t.chipAuthentication, field: document.chipAuthentication },
    { label: t.issuerCheck, field: document.issuerCheck },
  ];
  return (
    <Card title={t.document} id="document-heading">
      {!document.requested ? (
        <p className="mt-3 text-sm text-slate-600">{t.documentNotRequested}</p>
      ) : !document.provided ? (
        <p className="mt-3 text-sm italic text-amber-800">{t.documentNotProvided}</p>
      ) : (
        <>
          <dl className="fields mt-2 divide-y divide-slate-100">
            {rows.filter(wasRequested).map(({ label, field, masked, expiry }) =>
              // the expiry date with its badge: valid or expired on the day of the verification
              expiry ? (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd className="flex flex-wrap items-center gap-2">
                    {field.state === 'value' ? (
                      <span className="value">{field.text}</span>
                    ) : (
                      <span className="text-sm italic text-amber-800">{t.notProvided}</span>
                    )}
                    {document.expired !== undefined && (
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${document.expired ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}
                      >
                        {document.expired ? t.expired : t.valid}
                      </span>
                    )}
                  </dd>
                </div>
              ) : (
                <FieldRow key={label} label={label} field={field} masked={masked} revealed={numbersRevealed} locale={locale} />
              ),
            )}
          </dl>
          <NotRequested rows={rows} className="border-t border-slate-100 pt-2.5" locale={locale} />
        </>
      )}
      <EvidenceExtras lines={document.extras} testId="document-extras" />
    </Card>
  );
}

export function PopulationRegisterCard({ register, numbersRevealed, locale }: { register: PopulationRegisterView; numbersRevealed: boolean; locale: Locale }) {
  const t = CARDS_MESSAGES[locale];
  return (
    <Card title={t.register} id="register-heading">
      {register.provided ? (
        // a row each, like the document's: two rows side by side left a long label's value a word's width
        <dl className="fields mt-2 divide-y divide-slate-100">
          <FieldRow label={t.registerName} field={register.source} locale={locale} />
          <FieldRow label={t.matchedNumber} field={register.personalNumber} masked revealed={numbersRevealed} locale={locale} />
        </dl>
      ) : (
        <p className="mt-3 text-sm italic text-amber-800" data-testid="register-not-provided">
          {t.registerNotProvided(register.lookedUp)}
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
        <li key={line} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}

export function VerificationCard({ verification, locale }: { verification: VerificationView; locale: Locale }) {
  const t = CARDS_MESSAGES[locale];
  return (
    <Card title={t.verification} id="verification-heading">
      <dl className="fields mt-2 divide-y divide-slate-100">
        <FieldRow label={t.issuer} field={verification.issuer} mono url locale={locale} />
        <FieldRow label={t.trustFramework} field={verification.trustFramework} mono locale={locale} />
        <FieldRow label={t.acr} field={verification.acr} mono locale={locale} />
        <FieldRow label={t.amr} field={verification.amr} mono locale={locale} />
        <FieldRow label={t.authTime} field={verification.authTime} locale={locale} />
        <FieldRow label={t.subject} field={verification.subject} opaque locale={locale} />
        {verification.verificationTime && <FieldRow label={t.verifiedAt} field={{ state: 'value', text: verification.verificationTime }} locale={locale} />}
        {verification.assuranceLevel && (
          <FieldRow label={t.assuranceLevel} field={{ state: 'value', text: verification.assuranceLevel }} mono locale={locale} />
        )}
      </dl>
    </Card>
  );
}

/**
 * How each outcome is marked: a failed check stands out, one not made says so (the colours are
 * the `.checks` rules of app/globals.css, by `data-outcome`).
 */
const OUTCOME_MARKS: Record<Check['outcome'], string> = { passed: '✓', failed: '✗', not_checked: '–' };

export function ChecksCard({ checks, locale }: { checks: Check[]; locale: Locale }) {
  const t = CARDS_MESSAGES[locale];
  const failed = checks.filter((check) => check.outcome === 'failed').length;
  return (
    <Card title={t.checks} id="checks-heading">
      {failed > 0 && (
        <p className="mt-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-900" data-testid="checks-failed">
          {t.checksFailed(failed)}
        </p>
      )}
      <OutcomeList
        testId="checks"
        items={checks.map((check) => ({
          key: check.label,
          outcome: check.outcome,
          mark: OUTCOME_MARKS[check.outcome],
          spoken: t.outcomes[check.outcome],
          label: check.label,
          detail: check.detail,
        }))}
      />
    </Card>
  );
}
