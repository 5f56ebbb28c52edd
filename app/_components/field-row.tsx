import type { Field } from '@/lib/view/result-view';
import { MaskedValue } from './masked-value';

/**
 * One labelled value of the result, or why there is none. `masked`: a number the server masks
 * unless revealed (MaskedValue); `revealed` says which it is.
 */
export function FieldRow({
  label,
  field,
  mono = false,
  masked = false,
  revealed = false,
}: {
  label: string;
  field: Field;
  mono?: boolean;
  masked?: boolean;
  revealed?: boolean;
}) {
  return (
    <div className="grid grid-cols-[minmax(8rem,40%)_1fr] gap-3 py-2.5">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="min-w-0">
        {field.state === 'value' && masked ? (
          <>
            <MaskedValue text={field.text} label={label} revealed={revealed} />
            {field.hint && <span className="ml-2 text-sm text-slate-600">{field.hint}</span>}
          </>
        ) : field.state === 'value' ? (
          <>
            <span className={`break-words text-slate-900 ${mono ? 'font-mono text-sm' : 'font-medium'}`}>{field.text}</span>
            {field.hint && <span className="ml-2 text-sm text-slate-600">{field.hint}</span>}
          </>
        ) : field.state === 'not_provided' ? (
          <span className="text-sm italic text-amber-800">Not provided</span>
        ) : (
          <span className="text-sm text-slate-500">Not requested</span>
        )}
      </dd>
    </div>
  );
}
