import type { Locale } from '@/lib/i18n/locale';
import type { HealthReason, ServiceHealth } from '@/lib/server/service-health';
import { DOCTOR_MESSAGES } from '@/lib/view/doctor-messages';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';

const LOOKS = {
  ok: { pill: 'border-emerald-300 bg-emerald-50 text-emerald-900', dot: 'bg-emerald-600' },
  degraded: { pill: 'border-amber-300 bg-amber-50 text-amber-950', dot: 'bg-amber-500' },
  down: { pill: 'border-red-300 bg-red-50 text-red-900', dot: 'bg-red-600' },
  checking: { pill: 'border-slate-300 bg-white text-slate-700', dot: 'bg-slate-400' },
} as const;

/** Why the state is not OK, in a few words. */
function reasonText(reason: HealthReason, locale: Locale): string {
  const t = DOCTOR_MESSAGES[locale];
  if (reason.kind === 'configuration') return t.badge.configuration;
  if (reason.kind === 'findings') return t.badge.findings(reason.warnings, reason.failures);
  const cause = reason.cause === 'status' ? t.badge.status : reason.cause === 'not_object' ? t.badge.notObject : t.causes[reason.cause];
  return `${t.badge.endpoints[reason.endpoint]}: ${cause}${reason.stale ? `; ${t.badge.stale}` : ''}`;
}

/**
 * Says which service the app talks to (the embedded emulator or a real provider) and whether it
 * can be reached: green, amber when degraded, red when discovery or the JWKS cannot be fetched
 * (lib/server/service-health.ts). A link to the doctor, whose name says the state ("Provider:
 * Unreachable"); when not OK, the reason is written beside it in a few words (and read as its
 * description), so keyboard and touch users see it too, not only a mouse's hover. Given only what
 * it shows, never the configuration. On a phone it says the mode in one word, in a smaller pill.
 * Not shown in customer mode (IDV_CUSTOMER_MODE).
 */
export function ModeBadge({ health, locale }: { health: ServiceHealth; locale: Locale }) {
  const t = DOCTOR_MESSAGES[locale].badge;
  const look = LOOKS[health.state];
  const stateWord = health.reason?.kind === 'configuration' ? t.states.configuration : t.states[health.state];
  const reason = health.reason && health.state !== 'ok' ? reasonText(health.reason, locale) : undefined;
  const hover = [health.issuer ? `${t.service} ${health.issuer}` : undefined, reason, t.seeDoctor].filter(Boolean).join('\n');
  return (
    <div
      data-testid="mode-badge"
      data-state={health.state}
      data-mode={health.mode}
      className="flex min-w-0 max-w-[60%] shrink-0 flex-col items-end gap-0.5 sm:max-w-none sm:items-start"
    >
      <a
        href="/doctor"
        title={hover}
        aria-describedby={reason ? 'mode-badge-reason' : undefined}
        className={`inline-flex max-w-full items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap no-underline sm:px-2.5 sm:text-sm hover:underline ${look.pill}`}
      >
        <span aria-hidden="true" className={`size-2 shrink-0 rounded-full ${look.dot}`} />
        {health.mode && (
          <>
            <span className="sm:hidden">{`${PAGE_MESSAGES[locale].modeShort[health.mode]}:`}</span>
            <span className="hidden sm:inline">{`${PAGE_MESSAGES[locale].mode[health.mode]}:`}</span>
          </>
        )}
        <span data-testid="mode-badge-state">{stateWord}</span>
      </a>
      {reason && (
        <span id="mode-badge-reason" className="text-right text-xs text-slate-700 sm:text-left" data-testid="mode-badge-reason">
          {reason}
        </span>
      )}
    </div>
  );
}
