import type { Locale } from '@/lib/i18n/locale';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';

/**
 * Says which service the app talks to: the embedded emulator or a real provider. It is given
 * only what it shows (never the configuration, which holds private keys and secrets).
 */
export function ModeBadge({ mode, issuer, locale }: { mode: 'emulator' | 'provider'; issuer: string; locale: Locale }) {
  const emulator = mode === 'emulator';
  return (
    <div data-testid="mode-badge" className="inline-flex flex-wrap items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-sm text-slate-700">
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${emulator ? 'bg-amber-500' : 'bg-emerald-600'}`}
      />
      <span className="font-medium">{PAGE_MESSAGES[locale].mode[mode]}</span>
      <span className="font-mono text-xs break-all text-slate-600">{issuer}</span>
    </div>
  );
}
