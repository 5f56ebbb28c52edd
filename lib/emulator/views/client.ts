/**
 * What the client brings to the pages: its registered name (else its client_id); when it
 * registered one (clients.ts `logoUri`), its logo beside the name, at a fixed size, whose
 * alternative text is the name (a page that shows it allows its origin, or `data:`, for images,
 * `logoImageSources`, and nothing more); and the test persona it suggested by `login_hint`.
 */
import { logoSource, type RegisteredClient } from '../clients';
import { personas } from '../personas/personas';
import { html, type SafeHtml } from './html';

/** The name the pages give the client. */
export function clientDisplayName(client: Pick<RegisteredClient, 'clientId' | 'name'>): string {
  return client.name ?? client.clientId;
}

/**
 * The client's logo, `size` CSS pixels square (the image scaled to fit, never cropped), or nothing.
 * @param reachedBy on a device that reached the emulator by another base URL than the issuer (a
 *   phone, by the QR code): a logo on the issuer's own origin is fetched from that base URL's
 *   origin instead, the one address the device is known to reach
 */
export function clientLogo(
  client: Pick<RegisteredClient, 'clientId' | 'name' | 'logoUri'>,
  size: number,
  reachedBy?: { issuer: string; baseUrl: string },
): SafeHtml | '' {
  if (client.logoUri === undefined) return '';
  let src = client.logoUri;
  if (reachedBy && !src.startsWith('data:')) {
    const logo = new URL(src);
    const issuer = new URL(reachedBy.issuer);
    if (logo.origin === issuer.origin) src = `${new URL(reachedBy.baseUrl).origin}${logo.pathname}${logo.search}`;
  }
  return html`<img class="client-logo" src="${src}" alt="${clientDisplayName(client)}" width="${size}" height="${size}" data-testid="client-logo">`;
}

/** What a page showing the client's logo adds to its images' sources (CSP `img-src`). */
export function logoImageSources(client: Pick<RegisteredClient, 'logoUri'>): string[] {
  const source = logoSource(client);
  return source === undefined ? [] : [source];
}

/**
 * The persona the relying party suggested by `login_hint` (state.ts `loginHint`), when it names
 * one of the test personas; otherwise none, and nothing is pre-selected on its account.
 */
export function suggestedPersonaId(loginHint: string | undefined): string | undefined {
  return loginHint !== undefined && personas.some((persona) => persona.id === loginHint) ? loginHint : undefined;
}
