'use client';
/**
 * Says, before anything is pressed, that this page is open at another address than APP_URL's,
 * where Start would be refused as cross-site, and links to the same page at APP_URL. The server
 * sends such a page there itself when it can be sure the browser reaches APP_URL
 * (lib/server/app-address.ts); this covers the rest, as the browser alone knows its own address
 * (behind a proxy, or a phone that opened the network address).
 */
import { useSyncExternalStore } from 'react';
import type { Locale } from '@/lib/i18n/locale';
import { ADDRESS_MESSAGES } from '@/lib/view/address-messages';

const never = () => () => {};

export function AddressNotice({ appOrigin, locale }: { appOrigin: string; locale: Locale }) {
  const t = ADDRESS_MESSAGES[locale];
  // The server renders as if at APP_URL (nothing), the browser with its real address.
  const here = useSyncExternalStore(
    never,
    () => window.location.origin,
    () => appOrigin,
  );
  const path = useSyncExternalStore(
    never,
    () => `${window.location.pathname}${window.location.search}`,
    () => '/',
  );
  if (here === appOrigin) return null;
  const loopback = /^https?:\/\/(localhost|127\.|\[::1\])/.test(appOrigin);
  return (
    <div role="alert" className="address-notice" data-testid="address-notice">
      <p className="font-semibold">{t.title}</p>
      <p>{t.sentence(here, appOrigin)}</p>
      {loopback && <p className="text-sm">{t.otherDevice}</p>}
      <a href={`${appOrigin}${path}`} className="font-semibold underline" data-testid="address-notice-link">
        {t.open(appOrigin)}
      </a>
    </div>
  );
}
