/**
 * The URLs of an interaction's pages. Which base URL a link uses is a security and reachability
 * decision, so it is made here once:
 * - the app opened from the QR code (another device) uses `deviceBaseUrl`, the address a phone
 *   on the same network reaches, and carries only the interaction id;
 * - the app opened on this device, the status check and the continuation use the issuer's base
 *   URL (where this browser already is) and carry the browser secret, which the QR code never does.
 * @see spec part 1 (steps 3–6), 4.2
 */
import { ENDPOINT_PATHS } from '../config';
import type { EmulatorContext } from '../context';
import type { AppStepId } from './steps';

/**
 * How the app was opened: on this device (with the browser secret) or on another device (a phone
 * that opened the QR link, with the device secret it was given then: the phone the computer
 * confirmed, or one still showing its code; identity-app/phone-confirmation.ts).
 */
export type AppMode = { sameDevice: true; browserSecret: string } | { sameDevice: false; deviceSecret?: string };

function withQuery(url: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return search ? `${url}?${search}` : url;
}

/** The app's screens for an interaction: `/app/<id>`, optionally at a step. */
export function appLink(context: EmulatorContext, interactionId: string, mode: AppMode, step?: AppStepId): string {
  const base = mode.sameDevice ? context.issuer : context.deviceBaseUrl;
  return withQuery(`${base}${ENDPOINT_PATHS.app}/${encodeURIComponent(interactionId)}`, {
    browser: mode.sameDevice ? mode.browserSecret : undefined,
    device: mode.sameDevice ? undefined : mode.deviceSecret,
    step,
  });
}

/** What the QR code encodes: the app on another device, with nothing but the interaction id. */
export function qrCodeLink(context: EmulatorContext, interactionId: string): string {
  return appLink(context, interactionId, { sameDevice: false });
}

/** GET /auth/status for the waiting browser. */
export function statusLink(context: EmulatorContext, interactionId: string, browserSecret: string): string {
  return withQuery(context.issuer + ENDPOINT_PATHS.authorizationStatus, { interaction: interactionId, browser: browserSecret });
}

/** GET /auth/continue for the waiting browser. */
export function continueLink(context: EmulatorContext, interactionId: string, browserSecret: string): string {
  return withQuery(context.issuer + ENDPOINT_PATHS.authorizationContinue, { interaction: interactionId, browser: browserSecret });
}

/**
 * GET /auth/page for the waiting browser: the authorization page again (a reload, the language
 * switch's way back); with `showLink`, the page that prints the QR code's link as text.
 */
export function authorizationPageLink(context: EmulatorContext, interactionId: string, browserSecret: string, options: { showLink?: boolean } = {}): string {
  return withQuery(context.issuer + ENDPOINT_PATHS.authorizationPage, {
    interaction: interactionId,
    browser: browserSecret,
    link: options.showLink ? 'shown' : undefined,
  });
}

/** The relying party's home page, where a used-up flow's pages link back to: its redirect URI's origin, then `/`. */
export function relyingPartyHome(flow: { redirectOrigin: string }): string {
  return `${flow.redirectOrigin}/`;
}
