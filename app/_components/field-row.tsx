import { formatList } from '@/lib/i18n/format';
import { INTL_TAGS, type Locale } from '@/lib/i18n/locale';
import { CARDS_MESSAGES } from '@/lib/view/cards-messages';
import type { Field } from '@/lib/view/result-view';
import { MaskedValue } from './masked-value';

/**
 * A URL with a break opportunity (`<wbr>`) after each single `/` of its path and each `?` and `&`,
 * never inside `//` or a word: "https://idv.example/<wbr>emulator".
 */
function withBreaks(url: string): React.ReactNode[] {
  return url.split(/(?<=[^/]\/)(?!\/)|(?<=[?&])/).flatMap((part, index) => (index === 0 ? [part] : [<wbr key={index} />, part]));
}

/**
 * One labelled value of the result, or why there is none: a row of a `<dl className="fields">`
 * (app/globals.css). `masked`: a number the server masks
 * unless revealed (MaskedValue); `revealed` says which it is.
 */
export function FieldRow({
  label,
  field,
  mono = false,
  masked = false,
  revealed = false,
  url = false,
  opaque = false,
  locale,
}: {
  label: string;
  field: Field;
  mono?: boolean;
  masked?: boolean;
  revealed?: boolean;
  /** a URL: may break after its slashes and before its query's parts, never inside a word */
  url?: boolean;
  /** an opaque identifier (monospaced): may break anywhere */
  opaque?: boolean;
  locale: Locale;
}) {
  const t = CARDS_MESSAGES[locale];
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {field.state === 'value' && masked ? (
          <>
            <MaskedValue text={field.text} label={label} revealed={revealed} locale={locale} />
            {field.hint && <span className="hint">{field.hint}</span>}
          </>
        ) : field.state === 'value' ? (
          <>
            <span className={opaque ? 'value-opaque' : mono ? 'value-mono' : 'value'}>{url ? withBreaks(field.text) : field.text}</span>
            {field.hint && <span className="hint">{field.hint}</span>}
          </>
        ) : field.state === 'not_provided' ? (
          <span className="text-sm italic text-amber-800">{t.notProvided}</span>
        ) : (
          <span className="text-sm text-slate-500">{t.notRequested}</span>
        )}
      </dd>
    </div>
  );
}

/** Whether a row has something to show: a value, or that it was requested and not provided. */
export function wasRequested({ field }: { field: Field }): boolean {
  return field.state !== 'not_requested';
}

/**
 * What a card's request did not ask for, folded into one line after its rows ("Not requested:
 * gender and nationalities") rather than a row each: a preset that asks for little would
 * otherwise fill the card with rows that say nothing. Nothing when everything was requested.
 */
export function NotRequested({ rows, className = '', locale }: { rows: { label: string; field: Field }[]; className?: string; locale: Locale }) {
  const labels = rows.filter((row) => !wasRequested(row)).map(({ label }) => label.charAt(0).toLocaleLowerCase(INTL_TAGS[locale]) + label.slice(1));
  if (labels.length === 0) return null;
  return (
    <p className={`text-sm text-slate-500 ${className}`} data-testid="not-requested">
      {CARDS_MESSAGES[locale].notRequested}: {formatList(labels, locale)}
    </p>
  );
}
