/**
 * A DELIBERATELY BROKEN relying party, for proving that a conformance test notices one: it
 * accepts an ID token whatever its nonce (interface spec 4.5 says the nonce must equal the one of
 * the request object). Never copy it.
 *
 * THE ONE DEFECT: at the callback, the ID token's claims are checked against the token's own
 * `nonce` instead of the one kept in the session (look for "THE DEFECT" below), so a token
 * replayed or forged for another flow (the emulator's `wrong_nonce` and `missing_nonce` faults)
 * is accepted.
 *
 * Everything else is examples/express-server.ts: the same routes, environment variables, claims
 * requested, pages (the given name, the portrait only as a base64 JPEG data URI) and refusals.
 * Its callback spells out the core's completeAuthorization step by step, from lib/oidc's own
 * exports, so the core itself stays whole.
 *
 *   IDV_BASE_URL=… IDV_CLIENT_ID=broken-nonce-rp IDV_SIGNING_KEY='{…}' IDV_ENCRYPTION_KEY='{…}' \
 *   SESSION_SECRET=… PORT=8000 node --import tsx test/support/broken-relying-party.ts
 *                                                     (redirect URI http://127.0.0.1:8000/callback)
 */
import express from 'express';
import session from 'express-session';
import {
  DiscoveryCache,
  JwksCache,
  acceptedIdTokenEncryption,
  decryptIdToken,
  isIdvError,
  parseVerifiedClaims,
  processTokenResponse,
  requestToken,
  startAuthorization,
  validateAuthorizationResponse,
  validateIdTokenClaims,
  verifyIdTokenSignature,
  type PendingAuthorization,
  type RelyingParty,
} from '../../lib/oidc/index.ts';

declare module 'express-session' {
  interface SessionData {
    pending?: PendingAuthorization;
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (see the comment at the top of this file)`);
  return value;
}

const port = Number(process.env.PORT ?? 8000);
const issuer = required('IDV_BASE_URL');
const http = { allowInsecureRequests: /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(issuer).hostname) };
const rp: RelyingParty = {
  issuer,
  client: {
    clientId: required('IDV_CLIENT_ID'),
    redirectUri: `http://127.0.0.1:${port}/callback`,
    signingKey: JSON.parse(required('IDV_SIGNING_KEY')),
    encryptionKey: JSON.parse(required('IDV_ENCRYPTION_KEY')),
  },
  discovery: new DiscoveryCache(http),
  jwks: new JwksCache(http),
  http,
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Broken relying party (skips the nonce check)</title>${body}</html>`;
/** As the express example: only a base64 JPEG data URI (spec 2.3), never a URL the browser would fetch. */
const portrait = (picture: string | undefined) =>
  picture?.startsWith('data:image/jpeg;base64,') ? `<img data-testid="portrait" alt="Portrait from the identity document" src="${escape(picture)}">` : '';

function refuse(response: express.Response, error: unknown): void {
  if (!isIdvError(error)) console.error(error);
  const code = isIdvError(error) ? error.code : 'unexpected_error';
  const why = code === 'timeout' ? 'The identity service did not answer in time, so the verification was stopped.' : 'The verification was refused.';
  response.status(400).send(page(`<h1>Not verified</h1><p>${why}</p><p>Error <code data-testid="error-code">${escape(code)}</code></p>`));
}

const app = express();
app.use(session({ secret: required('SESSION_SECRET'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));
app.use((_request, response, next) => {
  response.set('Content-Security-Policy', "default-src 'none'; img-src data:");
  next();
});

app.get('/', (_request, response) => {
  response.send(page('<h1>Broken relying party</h1><form method="post" action="/login"><button>Verify my identity</button></form>'));
});

app.post('/login', async (request, response) => {
  try {
    const { authorizationUrl, pending } = await startAuthorization(rp, {
      trustFramework: 'standard',
      claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true }, picture: { essential: false } },
    });
    request.session.pending = pending;
    response.redirect(303, authorizationUrl);
  } catch (error) {
    refuse(response, error);
  }
});

app.get('/callback', async (request, response) => {
  const pending = request.session.pending;
  delete request.session.pending;
  try {
    const parameters = new URL(request.originalUrl, 'http://callback').searchParams;
    const metadata = await rp.discovery.get(rp.issuer);
    const { code } = validateAuthorizationResponse(parameters, {
      issuer: metadata.issuer,
      expectedState: pending?.state,
      requireIss: metadata.authorization_response_iss_parameter_supported === true,
    });
    // validateAuthorizationResponse throws when there is no pending authorization for this state.
    const token = await processTokenResponse(
      await requestToken(metadata, rp.client, { code, codeVerifier: pending!.codeVerifier }, { ...rp.http, now: Date.now() }),
    );
    const { jws } = await decryptIdToken(token.idToken, rp.client.encryptionKey, acceptedIdTokenEncryption(metadata));
    const { payload } = await verifyIdTokenSignature(jws, rp.jwks, metadata.jwks_uri);
    // THE DEFECT: the expected nonce is the token's own (pending.nonce is never looked at), so
    // the nonce check always passes. Every other claim is checked as the core does.
    const claims = validateIdTokenClaims(payload, { issuer: metadata.issuer, clientId: rp.client.clientId, nonce: payload.nonce as string, now: Date.now() });
    const { given_name, family_name, birthdate, picture } = parseVerifiedClaims(claims.verified_claims)[0]?.claims ?? {};
    const name = [given_name, family_name].filter(Boolean).join(' ');
    response.send(
      page(
        `<h1>Verified: ${escape(name)}</h1><p>Given name: <span data-testid="given-name">${escape(given_name ?? '')}</span></p>` +
          portrait(picture) +
          (birthdate ? `<p>Born ${escape(birthdate)}</p>` : ''),
      ),
    );
  } catch (error) {
    refuse(response, error);
  }
});

app.listen(port, '127.0.0.1', () => console.log(`broken relying party (skips the nonce check) on http://127.0.0.1:${port}`));
