'use client';

import { useEffect, useMemo, useState } from 'react';
import { buildClaimsRequest, selectionProblemCodes } from '@/lib/oidc/claims-request';
import { requestObjectClaims } from '@/lib/oidc/request-object';
import { CLAIM_NAMES, DOCUMENT_DETAILS, type ClaimName, type DocumentDetail, type Selection } from '@/lib/oidc/types';
import type { Preset } from '@/lib/verification/presets';
import type { Locale } from '@/lib/i18n/locale';
import { CLAIM_LABELS, DOCUMENT_DETAIL_LABELS } from '@/lib/view/labels';
import { PICKER_MESSAGES } from '@/lib/view/picker-messages';
import { EVIDENCE, FIELD, SEND_ANYWAY_VALUE, selectionLink, tickClaim, type EssentialWhenUnticked } from '@/lib/verification/selection';

interface PickerProps {
  trustFrameworks: string[];
  initial: Selection;
  /** the preset `initial` is, unchanged (a link to it) */
  initialPreset?: string | undefined;
  presets: readonly Preset[];
  clientId: string;
  issuer: string;
  redirectUri: string;
  emulator: boolean;
  /**
   * The display names of the embedded emulator's personas, by id (emulator mode only): a preset
   * names the person it suggests, and the flow pre-selects them (`login_hint`).
   */
  personaNames?: Readonly<Record<string, string>>;
  /** the population register's name in register requests (IDV_POPULATION_REGISTER_NAME) */
  populationRegisterName: string;
  /** presenter mode: the personal number typed is masked on screen and in the previews */
  presenter?: boolean;
  /**
   * QA's own controls (sending a selection the service will refuse, to see its error); off in
   * customer mode (IDV_CUSTOMER_MODE), where the problems are still explained
   */
  qaTools?: boolean;
  locale: Locale;
}

const box = 'size-4 rounded border-slate-400 text-indigo-700 accent-indigo-700';

/** The part of the picker with Start verification: the target of the page's "Skip to Start verification" link. */
export const START_SECTION_ID = 'start-verification';

/**
 * The claims picker. Server-rendered with the default selection checked, so the plain form posts
 * it without JavaScript; with JavaScript it previews the exact `claims` parameter and request
 * object, explains mistakes, and offers presets.
 */
export function Picker({
  trustFrameworks,
  initial,
  initialPreset,
  presets,
  clientId,
  issuer,
  redirectUri,
  emulator,
  personaNames = {},
  populationRegisterName,
  presenter = false,
  qaTools = true,
  locale,
}: PickerProps) {
  const t = PICKER_MESSAGES[locale];
  const [selection, setSelection] = useState<Selection>(initial);
  // Each claim's "essential" choice as it was when the claim was unticked: ticked again, it comes back.
  const [essentialWhenUnticked, setEssentialWhenUnticked] = useState<EssentialWhenUnticked>({});
  const [sendAnyway, setSendAnyway] = useState(false);
  const [activePreset, setActivePreset] = useState<string | undefined>(initialPreset);
  const [copiedLink, setCopiedLink] = useState<string | undefined>();
  // Pressed Start: POST /auth/start pushes the request (PAR) before the browser moves on, which
  // may take a while. The button says so, and a second press sends nothing.
  const [starting, setStarting] = useState(false);
  const link = selectionLink(selection, activePreset);
  // Back from the service's page, the browser may show this page from its back-forward cache,
  // state and all: the button is ready again.
  useEffect(() => {
    const restore = (event: PageTransitionEvent) => {
      if (event.persisted) setStarting(false);
    };
    window.addEventListener('pageshow', restore);
    return () => window.removeEventListener('pageshow', restore);
  }, []);
  // The address bar always holds a link to this request: share it, or reload to keep it.
  useEffect(() => {
    if (`${window.location.pathname}${window.location.search}` !== link) window.history.replaceState(null, '', link);
  }, [link]);

  const claimsRequest = useMemo(() => buildClaimsRequest(selection, { populationRegisterName }), [selection, populationRegisterName]);
  const requestObject = useMemo(
    () => ({
      ...requestObjectClaims({
        client: { clientId, redirectUri },
        audience: issuer,
        state: '<32 random bytes, base64url>',
        nonce: '<32 random bytes, base64url>',
        codeChallenge: '<BASE64URL(SHA-256(code_verifier))>',
        claims: claimsRequest,
      }),
      exp: '<now + 300 s>',
    }),
    [clientId, redirectUri, issuer, claimsRequest],
  );
  const problems = selectionProblemCodes(selection);
  const activePersona = presets.find((preset) => preset.id === activePreset)?.persona;
  // Presenter mode masks the personal number typed wherever the page shows it.
  const hidden = presenter ? selection.populationRegister?.personalNumber : undefined;
  const blocked = problems.length > 0 && !sendAnyway;

  const update = (change: (draft: Selection) => Selection) => {
    setActivePreset(undefined);
    setSelection((current) => change(structuredClone(current)));
  };
  const toggleClaim = (name: ClaimName, on: boolean) => {
    const ticked = tickClaim(selection, name, on, essentialWhenUnticked);
    setEssentialWhenUnticked(ticked.kept);
    update(() => structuredClone(ticked.selection));
  };
  const toggleEssential = (name: ClaimName, on: boolean) =>
    update((draft) => {
      if (draft.claims[name]) draft.claims[name] = { essential: on };
      return draft;
    });
  const toggleDocument = (on: boolean) =>
    update((draft) => {
      if (on) draft.document = { details: [...DOCUMENT_DETAILS] };
      else delete draft.document;
      return draft;
    });
  const toggleDetail = (detail: DocumentDetail, on: boolean) =>
    update((draft) => {
      if (!draft.document) return draft;
      const details = new Set(draft.document.details);
      if (on) details.add(detail);
      else details.delete(detail);
      draft.document.details = DOCUMENT_DETAILS.filter((d) => details.has(d));
      return draft;
    });
  const toggleRegister = (on: boolean) =>
    update((draft) => {
      if (on) draft.populationRegister = {};
      else delete draft.populationRegister;
      return draft;
    });

  return (
    <form
      method="post"
      action="/auth/start"
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
      data-testid="picker"
      aria-busy={starting}
      onSubmit={(event) => {
        // Presets prevent their own submit; what is left is Start (or Enter). Only the first goes.
        if (starting) event.preventDefault();
        else setStarting(true);
      }}
    >
      <div className="min-w-0 space-y-6">
        <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t.presets}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {presets.map((preset) => (
              <button
                key={preset.id}
                type="submit"
                name={FIELD.preset}
                value={preset.id}
                onClick={(event) => {
                  event.preventDefault();
                  setSelection(structuredClone(preset.selection));
                  setActivePreset(preset.id);
                }}
                aria-pressed={activePreset === preset.id}
                // A column from the top: the titles of a row line up, however long each description.
                className={`flex h-full flex-col items-start justify-start rounded-lg border px-3 py-2 text-left text-sm hover:border-indigo-400 ${activePreset === preset.id ? 'border-indigo-600 bg-accent-soft' : 'border-slate-200 bg-white'}`}
                data-testid={`preset-${preset.id}`}
              >
                <span className="block font-semibold text-slate-900" data-testid="preset-title">
                  {preset.label[locale]}
                </span>
                <span className="block text-slate-600">{preset.description[locale]}</span>
                {emulator && personaNames[preset.persona] && (
                  <span className="mt-auto block pt-1 text-xs text-slate-600" data-testid="preset-persona">
                    {t.suggestedPerson} <span className="font-medium text-slate-800">{personaNames[preset.persona]}</span>
                  </span>
                )}
              </button>
            ))}
          </div>
          {activePreset !== undefined && (
            <p className="mt-3 text-sm text-slate-600" data-testid="preset-policy">
              {/* The preset's policy goes with its selection, until the selection is changed. */}
              <input type="hidden" name={FIELD.policy} value={activePreset} />
              {/* The person it suggests, pre-selected on the emulator's page (the start checks the id). */}
              {emulator && activePersona && <input type="hidden" name={FIELD.persona} value={activePersona} />}
              {t.judgedBy[0]}{' '}
              <strong className="text-slate-900">
                {policyNameOf(
                  presets.find((preset) => preset.id === activePreset),
                  locale,
                )}
              </strong>
              {t.judgedBy[1]}
            </p>
          )}
        </fieldset>

        <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t.trustFramework}</legend>
          <div className="flex flex-wrap gap-4">
            {trustFrameworks.map((framework) => (
              <label key={framework} className="flex items-center gap-2 text-slate-800">
                <input
                  type="radio"
                  name={FIELD.trustFramework}
                  value={framework}
                  checked={selection.trustFramework === framework}
                  onChange={() => update((draft) => ({ ...draft, trustFramework: framework }))}
                  className="size-4 accent-indigo-700"
                />
                <code className="font-mono text-sm">{framework}</code>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t.claims}</legend>
          <ul className="divide-y divide-slate-100">
            {CLAIM_NAMES.map((name) => {
              const requested = selection.claims[name];
              return (
                <li key={name} className="flex items-center justify-between gap-3 py-2">
                  {/* The claim's name and its code wrap beside the box, so "essential" keeps to the right on a phone. */}
                  <label className="flex min-w-0 items-center gap-2 text-slate-800">
                    <input
                      type="checkbox"
                      name={FIELD.claim}
                      value={name}
                      checked={!!requested}
                      onChange={(e) => toggleClaim(name, e.target.checked)}
                      className={`${box} shrink-0`}
                    />
                    <span className="flex min-w-0 flex-wrap items-baseline gap-x-1.5">
                      {CLAIM_LABELS[locale][name]} <code className="font-mono text-xs text-slate-500">{name}</code>
                    </span>
                  </label>
                  <label className={`flex shrink-0 items-center gap-2 text-sm ${requested ? 'text-slate-700' : 'text-slate-400'}`}>
                    <input
                      type="checkbox"
                      name={FIELD.essential}
                      value={name}
                      // unticked, the claim shows the choice it will come back with (a disabled box is not sent)
                      checked={requested ? requested.essential : (essentialWhenUnticked[name] ?? false)}
                      disabled={!requested}
                      onChange={(e) => toggleEssential(name, e.target.checked)}
                      className={box}
                    />
                    {t.essential}
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>

        <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t.evidence}</legend>
          <label className="flex items-center gap-2 font-medium text-slate-900">
            <input
              type="checkbox"
              name={FIELD.evidence}
              value={EVIDENCE.document}
              checked={!!selection.document}
              onChange={(e) => toggleDocument(e.target.checked)}
              className={box}
            />
            {t.document}
          </label>
          <div className="mt-2 grid gap-x-6 gap-y-1.5 pl-6 sm:grid-cols-2">
            {DOCUMENT_DETAILS.map((detail) => (
              <label key={detail} className={`flex items-center gap-2 text-sm ${selection.document ? 'text-slate-800' : 'text-slate-400'}`}>
                <input
                  type="checkbox"
                  name={FIELD.documentDetail}
                  value={detail}
                  checked={selection.document?.details.includes(detail) ?? false}
                  disabled={!selection.document}
                  onChange={(e) => toggleDetail(detail, e.target.checked)}
                  className={box}
                />
                {DOCUMENT_DETAIL_LABELS[locale][detail]}
              </label>
            ))}
          </div>
          <label className="mt-4 flex items-center gap-2 font-medium text-slate-900">
            <input
              type="checkbox"
              name={FIELD.evidence}
              value={EVIDENCE.populationRegister}
              checked={!!selection.populationRegister}
              onChange={(e) => toggleRegister(e.target.checked)}
              className={box}
            />
            <span>
              {t.populationRegister} (<span data-testid="population-register-name">{populationRegisterName}</span>)
            </span>
          </label>
          <div className="mt-2 pl-6">
            <label htmlFor="personal-number" className={`block text-sm ${selection.populationRegister ? 'text-slate-700' : 'text-slate-400'}`}>
              {t.personalNumber}
            </label>
            <input
              id="personal-number"
              name={FIELD.personalNumber}
              inputMode="numeric"
              autoComplete="off"
              maxLength={11}
              // Enter would press the first submit button in the form: a preset.
              onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
              disabled={!selection.populationRegister}
              value={selection.populationRegister?.personalNumber ?? ''}
              onChange={(e) =>
                update((draft) => {
                  const value = e.target.value.trim();
                  draft.populationRegister = value ? { personalNumber: value } : {};
                  return draft;
                })
              }
              className={`mt-1 w-48 rounded-md border border-slate-300 px-2 py-1.5 font-mono text-sm disabled:bg-slate-50 ${presenter ? 'presenter-secret' : ''}`}
            />
          </div>
        </fieldset>

        <div
          id={START_SECTION_ID}
          tabIndex={-1}
          className="scroll-mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
        >
          {problems.length > 0 && (
            <div role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="selection-problems">
              <p className="font-semibold">{t.willRefuse}</p>
              <ul className="mt-1 list-disc pl-5">
                {problems.map((problem) => (
                  <li key={problem}>{t.problems[problem]}</li>
                ))}
              </ul>
              {qaTools && (
                <label className="mt-3 flex items-center gap-2 font-medium">
                  <input
                    type="checkbox"
                    name={FIELD.sendAnyway}
                    value={SEND_ANYWAY_VALUE}
                    checked={sendAnyway}
                    onChange={(e) => setSendAnyway(e.target.checked)}
                    className={box}
                  />
                  {t.sendAnyway}
                </label>
              )}
            </div>
          )}
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              disabled={blocked || starting}
              data-testid="start"
              className={`inline-flex items-center gap-2 rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent shadow-sm hover:bg-indigo-800 disabled:cursor-not-allowed ${starting ? 'disabled:bg-indigo-700 disabled:opacity-80' : 'disabled:bg-slate-400'}`}
            >
              {starting && (
                <span
                  aria-hidden="true"
                  className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
                  data-testid="start-spinner"
                />
              )}
              {starting ? t.starting : t.start}
            </button>
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(new URL(link, window.location.href).href).then(
                  () => setCopiedLink(link),
                  () => undefined,
                )
              }
              className="rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-medium text-slate-800 hover:bg-slate-50"
              data-testid="copy-link"
            >
              {copiedLink === link ? t.linkCopied : t.copyLink}
            </button>
            <span role="status" className="sr-only">
              {copiedLink === link ? t.linkOnClipboard : ''}
            </span>
            <span role="status" className="sr-only" data-testid="start-status">
              {starting ? t.startingStatus : ''}
            </span>
          </div>
          <p className="mt-2 text-sm text-slate-600">
            {t.pushesAs(emulator)[0]} <code className="font-mono text-slate-800">{clientId}</code>
            {t.pushesAs(emulator)[1]}
          </p>
        </div>
      </div>

      <aside className="min-w-0 space-y-4 lg:sticky lg:top-6 lg:self-start" aria-label={t.preview}>
        <Preview title={t.claimsParameter} testId="claims-preview" value={claimsRequest} hide={hidden} locale={locale} />
        <Preview title={t.requestObject} testId="request-object-preview" value={requestObject} hide={hidden} note={t.freshValues} locale={locale} />
      </aside>
    </form>
  );
}

function policyNameOf(preset: Preset | undefined, locale: Locale): string | undefined {
  return preset && (typeof preset.policy.name === 'string' ? preset.policy.name : preset.policy.name[locale]);
}

/**
 * A line of a preview with the places it may wrap that read well: after each single `/` of a URL
 * and each `_` of a claim name (`<wbr>`, which adds no text), so that the browser breaks a word
 * anywhere only when it has nothing better; and the punctuation that ends it kept with the
 * character before it, never left alone on a line of its own (a lone ",").
 */
function wrappable(line: string): React.ReactNode[] {
  const [, body = '', end = ''] = /^(.*?)(\w?[^\w\s]*)$/.exec(line) ?? [];
  const parts = body.split(/(?<=[^/]\/)(?!\/)|(?<=_)/).flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]));
  return [
    ...parts,
    <span key="end" className="whitespace-nowrap">
      {end}
    </span>,
  ];
}

/**
 * `hide`: a value shown as dots, every character of it (presenter mode), in the preview and in
 * what Copy copies. Not its last four: the preview follows each keystroke, and a recording would
 * catch every digit as it is typed.
 */
function Preview({
  title,
  value,
  testId,
  note,
  hide,
  locale,
}: {
  title: string;
  value: unknown;
  testId: string;
  note?: string;
  hide?: string | undefined;
  locale: Locale;
}) {
  const t = PICKER_MESSAGES[locale];
  const json = JSON.stringify(value, null, 2);
  const text = hide ? json.replaceAll(JSON.stringify(hide), JSON.stringify('•'.repeat(hide.length))) : json;
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
        <button
          type="button"
          onClick={() => void navigator.clipboard?.writeText(text)}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
          aria-label={t.copyThe(title)}
        >
          {t.copy}
        </button>
      </div>
      {note && <p className="mt-1 text-xs text-slate-600">{note}</p>}
      {/* Long lines wrap inside the box (a URL anywhere), never cut off; a border keeps it a panel of its own on a dark card. */}
      <pre
        data-testid={testId}
        tabIndex={0}
        role="region"
        aria-label={title}
        className="mt-2 max-h-[28rem] overflow-auto rounded-md border border-slate-300 bg-code p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-code-ink [overflow-wrap:anywhere]"
      >
        {text.split('\n').map((line, index, lines) => {
          // A wrapped line continues two characters in from where its own text starts (a hanging
          // indent), so a long value never runs back to the left edge; the text itself, spaces and
          // newlines, is what Copy copies.
          const hang = `${line.length - line.trimStart().length + 2}ch`;
          return (
            <span key={index} className="block" style={{ paddingLeft: hang, textIndent: `-${hang}` }}>
              {wrappable(line)}
              {index < lines.length - 1 ? '\n' : ''}
            </span>
          );
        })}
      </pre>
    </section>
  );
}
