/**
 * A whole verification from a plain Node program: the core (lib/oidc, copied as it is) and
 * nothing else but jose. The person's part, the identity app, is played here on the emulator's
 * quick-test form, so this runs against an emulator: a running copy of the app (`npm run dev`),
 * whose emulator knows this client (`EMULATOR_CLIENTS`, with the public JWKS `npm run keys` prints).
 *
 *   IDV_BASE_URL=http://localhost:3000/emulator IDV_CLIENT_ID=example \
 *   IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' REDIRECT_URI=http://127.0.0.1:8000/callback \
 *   node verify.js [persona]
 *
 * Prints the verified person as JSON; exits 1 with the error's stable code when anything fails.
 */
import { DiscoveryCache, JwksCache, completeAuthorization, isIdvError, startAuthorization, type RelyingParty } from '../lib/oidc/index.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the comment at the top of this file)`);
  return value;
}

const issuer = required('IDV_BASE_URL');
// Plain http only for an emulator on this machine (localhost, 127.0.0.0/8, [::1]).
const http = { allowInsecureRequests: /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(issuer).hostname) };
const rp: RelyingParty = {
  issuer,
  client: {
    clientId: required('IDV_CLIENT_ID'),
    redirectUri: required('REDIRECT_URI'),
    signingKey: JSON.parse(required('IDV_SIGNING_KEY')),
    encryptionKey: JSON.parse(required('IDV_ENCRYPTION_KEY')),
  },
  // `http` reaches the caches' requests too: allowInsecureRequests is set in one place.
  discovery: new DiscoveryCache(),
  jwks: new JwksCache(),
  http,
};

try {
  // Steps 1-3: PKCE, state and nonce, the signed request object, PAR; the URL for the browser.
  const { authorizationUrl, pending } = await startAuthorization(rp, {
    trustFramework: 'standard',
    claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true } },
  });

  // Steps 4-5, the person: open the page and approve on its quick-test form, as a browser would.
  const page = await (await fetch(authorizationUrl)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
  const decision = await fetch(new URL('auth', `${issuer}/`), {
    method: 'POST',
    body: new URLSearchParams({
      interaction: field('interaction'),
      browser: field('browser'),
      persona: process.argv[2] ?? 'ingrid-haugen',
      outcome: 'approve',
    }),
    redirect: 'manual',
  });
  const callback = new URL(decision.headers.get('location') ?? 'about:blank');

  // Steps 6-9: check the callback against what was kept, redeem the code, decrypt and verify the ID token.
  const { idToken, verifiedClaims } = await completeAuthorization(rp, callback.searchParams, pending);
  console.log(JSON.stringify({ sub: idToken.claims.sub, trustFramework: verifiedClaims[0]?.trustFramework, claims: verifiedClaims[0]?.claims }, null, 2));
} catch (error) {
  console.error(isIdvError(error) ? `verification failed: ${error.code}: ${error.message}` : error);
  process.exitCode = 1;
}
