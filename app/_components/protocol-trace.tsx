'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Locale } from '@/lib/i18n/locale';
import { TRACE_MESSAGES } from '@/lib/view/trace-messages';
import type { TraceEntryView } from '@/lib/view/trace-view';
import { IdTokenChecks } from './id-token-checks';

/** The tone of an exchange's status badge (the `.trace-status` rules of app/globals.css). */
function statusTone(entry: TraceEntryView): 'failed' | 'cache' | 'redirect' | 'ok' {
  if (entry.checksPassed === false) return 'failed';
  if (entry.error || (entry.status !== undefined && entry.status >= 400)) return 'failed';
  if (entry.fromCache) return 'cache';
  if (entry.status !== undefined && entry.status >= 300) return 'redirect';
  return 'ok';
}

function CopyButton({ text, label, locale }: { text: string | (() => Promise<string>); label: string; locale: Locale }) {
  const t = TRACE_MESSAGES[locale];
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void (typeof text === 'string' ? Promise.resolve(text) : text())
          .then((value) => navigator.clipboard?.writeText(value))
          .then(
            () => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            },
            () => undefined,
          );
      }}
      className="button-small"
      aria-label={label}
    >
      {copied ? t.copied : t.copy}
    </button>
  );
}

/**
 * An exchange's row: its number in a column of its own (so it never sits alone on a line of a
 * phone), then its title, status and time, and its URL on a line below.
 */
function TraceHead({ entry, locale }: { entry: TraceEntryView; locale: Locale }) {
  const t = TRACE_MESSAGES[locale];
  return (
    <>
      <span className="trace-index">{entry.index}</span>
      <span className="trace-head">
        <span className="trace-title">{entry.title}</span>
        {entry.checksPassed !== undefined && (
          <span className="trace-status" data-tone={statusTone(entry)}>
            {entry.checksPassed ? t.check.passed : t.check.failed}
          </span>
        )}
        {(entry.method || entry.status !== undefined || entry.fromCache || entry.error) && (
          <span className="trace-status" data-tone={statusTone(entry)}>
            {[entry.method, entry.error ? t.statusFailed : entry.status, entry.fromCache ? t.statusCache : undefined].filter(Boolean).join(' ')}
          </span>
        )}
        <span className="trace-time">
          {entry.at.slice(11, 23)}
          {entry.durationMs !== undefined ? ` · ${entry.durationMs} ms` : ''}
        </span>
        {entry.url && <span className="trace-url">{entry.url}</span>}
      </span>
    </>
  );
}

/**
 * Every exchange of the flow in order; works without JavaScript (details/summary), copy and
 * download with it. With `detailUrl`, `entries` carry no sections: the whole trace is fetched from
 * there when the first exchange is opened (or copied, or downloaded), and without JavaScript the
 * trace is a link to it.
 *
 * Titles and labels come in the reader's language (lib/view/trace-view.ts), and Copy and
 * Download export exactly what is shown.
 */
export function ProtocolTrace({ entries, fileName, detailUrl, locale }: { entries: TraceEntryView[]; fileName: string; detailUrl?: string; locale: Locale }) {
  const t = TRACE_MESSAGES[locale];
  const [loaded, setLoaded] = useState<TraceEntryView[] | undefined>(detailUrl ? undefined : entries);
  /** why the detail could not be loaded (`HTTP 404`, a network error) */
  const [loadError, setLoadError] = useState<string | undefined>();
  const pending = useRef<Promise<TraceEntryView[]> | undefined>(undefined);
  const load = useCallback((): Promise<TraceEntryView[]> => {
    if (loaded) return Promise.resolve(loaded);
    pending.current ??= fetch(detailUrl!, { cache: 'no-store' })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json() as Promise<TraceEntryView[]>;
      })
      .then(
        (full) => {
          setLoaded(full);
          setLoadError(undefined);
          return full;
        },
        (error: Error) => {
          pending.current = undefined;
          setLoadError(error.message);
          throw error;
        },
      );
    return pending.current;
  }, [detailUrl, loaded]);
  // An exchange opened before the page was hydrated fired its toggle before React listened: its
  // detail is loaded now, rather than "Loading the detail…" until it is closed and opened again.
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (detailUrl && list.current?.querySelector('details[open]')) void load().catch(() => undefined);
    // once, at hydration: later toggles are React's
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const all = async () => JSON.stringify(await load(), null, 2);
  const download = async () => {
    const url = URL.createObjectURL(new Blob([await all()], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    URL.revokeObjectURL(url);
  };
  const shown = entries;
  const shownLoaded = loaded;
  /** the entry as loaded with the whole trace (its sections, and its checks), once it is */
  const loadedEntry = (entry: TraceEntryView) => shownLoaded?.find((full) => full.index === entry.index);
  return (
    <section aria-labelledby="trace-heading" className="card">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="trace-heading" className="card-title">
            {t.heading}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t.intro}</p>
        </div>
        <div className="flex gap-2">
          <CopyButton text={all} label={t.copyAll} locale={locale} />
          <button type="button" onClick={() => void download().catch(() => undefined)} className="button-small">
            {t.download}
          </button>
        </div>
      </div>
      {entries.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">{t.nothingExchanged}</p>
      ) : (
        <ol ref={list} className="trace mt-4 space-y-2" data-testid="trace">
          {shown.map((entry) => {
            const head = <TraceHead entry={entry} locale={locale} />;
            // A step with nothing to open (a cache answered it) is a plain row, not an empty drawer.
            if (!entry.expandable) {
              return (
                <li key={entry.index} data-testid="trace-entry" data-step={entry.step} data-expandable="false">
                  <div className="trace-row">{head}</div>
                </li>
              );
            }
            const full = loadedEntry(entry);
            // The ID token's checks: with the entry when one failed, else loaded with the detail (traceSummary).
            const checks = entry.checks ?? full?.checks;
            const listsChecks = entry.checksPassed !== undefined;
            return (
              <li key={entry.index} data-testid="trace-entry" data-step={listsChecks ? 'id_token_checks' : entry.step}>
                <details
                  // the checks of a failed ID token are open from the start: the failing one is what QA came for
                  open={entry.checksPassed === false || undefined}
                  onToggle={(event) => {
                    if ((event.currentTarget as HTMLDetailsElement).open) void load().catch(() => undefined);
                  }}
                >
                  <summary className="trace-row">{head}</summary>
                  <div className="trace-body">
                    {entry.error && <p className="text-sm text-red-800">{entry.error}</p>}
                    {checks ? (
                      <IdTokenChecks checks={checks} locale={locale} />
                    ) : !full ? (
                      loadError ? (
                        <p role="alert" className="text-sm text-red-800">
                          {t.loadError(loadError)}
                        </p>
                      ) : (
                        <p className="text-sm text-slate-600">
                          {t.loading} ({t.withoutJavaScript}:{' '}
                          <a className="link" href={detailUrl}>
                            {t.wholeTraceAsJson}
                          </a>
                          )
                        </p>
                      )
                    ) : null}
                    {(full?.sections ?? []).map((section) => (
                      <div key={section.label}>
                        <div className="mb-1 flex items-center justify-between gap-2">
                          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{section.label}</h3>
                          <CopyButton text={section.content} label={t.copySection(section.label)} locale={locale} />
                        </div>
                        <pre tabIndex={0} role="region" aria-label={`${entry.title}: ${section.label}`} className="code-panel">
                          {section.content}
                        </pre>
                        {section.times && (
                          <dl className="trace-times" aria-label={`${section.label}: ${t.times}`} data-testid="trace-times">
                            {section.times.map((time) => (
                              <div key={time.claim}>
                                <dt>
                                  <code>{time.claim}</code> <span className="font-mono">{time.seconds}</span>
                                </dt>
                                <dd>{time.text}</dd>
                              </div>
                            ))}
                          </dl>
                        )}
                      </div>
                    ))}
                  </div>
                </details>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
