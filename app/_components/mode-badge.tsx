import type { ServerConfig } from '@/lib/server/env';

/** Says which service the app talks to: the embedded emulator or a real provider. */
export function ModeBadge({ config }: { config: Pick<ServerConfig, 'mode' | 'issuer' | 'client'> }) {
  const emulator = config.mode === 'emulator';
  return (
    <div data-testid="mode-badge" className="inline-flex flex-wrap items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-sm text-slate-700">
      <span
        aria-hidden="true"
        className={`size-2 rounded-full ${emulator ? 'bg-amber-500' : 'bg-emerald-600'}`}
      />
      <span className="font-medium">{emulator ? 'Embedded emulator' : 'Provider'}</span>
      <span className="font-mono text-xs break-all text-slate-600">{config.issuer}</span>
    </div>
  );
}
