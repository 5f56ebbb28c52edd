/**
 * The notice of a page opened at another address than the app's own (app/_components/address-notice.tsx),
 * in each language (lib/i18n).
 */
import type { Locale } from '@/lib/i18n/locale';

export interface AddressMessages {
  title: string;
  /** why: the page's own address, and the app's */
  sentence: (opened: string, app: string) => string;
  open: (app: string) => string;
  /** for a device that cannot reach a loopback APP_URL */
  otherDevice: string;
}

export const ADDRESS_MESSAGES: Record<Locale, AddressMessages> = {
  en: {
    title: 'Open this app at its own address',
    sentence: (opened, app) => `This page is open at ${opened}, but the app’s address is ${app}. Sign-in works only there: Start would be refused here.`,
    open: (app) => `Open ${app}`,
    otherDevice: 'To use it from another device, the server must be started with APP_URL set to an address that device reaches.',
  },
  nb: {
    title: 'Åpne appen på dens egen adresse',
    sentence: (opened, app) => `Denne siden er åpnet på ${opened}, men appens adresse er ${app}. Innlogging virker bare der: Start ville blitt avvist her.`,
    open: (app) => `Åpne ${app}`,
    otherDevice: 'For å bruke den fra en annen enhet må serveren startes med APP_URL satt til en adresse den enheten når.',
  },
};
