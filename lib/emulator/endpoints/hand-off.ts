/**
 * Cross-device completion: the user started on one device (the browser at GET /auth) and
 * verifies in the identity app on another (a phone, from the QR code). The phone's decision is
 * kept in the interaction; the starting browser learns of it (GET /auth/status, polled by the
 * page's script) and fetches the redirect to the client (GET /auth/continue).
 *
 * Both endpoints require the interaction's browser secret, which only the starting browser has:
 * whoever sees the QR code can open the app, but cannot receive the code, and cannot use the app
 * either unless the starting browser confirms that phone by the code it shows
 * (identity-app/phone-confirmation.ts). The interaction is taken by the continuation, so the
 * redirect is delivered once.
 * @see spec part 1 (steps 4–6), 4.2; compare RFC 8628 (device authorization grant) §3.3–3.5
 */
import { queryParameters } from '../checks/request-parameters';
import type { EmulatorContext } from '../context';
import { authorizationPageScript } from '../views/assets';
import { interactionPage, withErrorPage } from '../views/authorization-page';
import { pageLanguage } from '../views/language';
import { completeInteraction } from '../identity-app/decision';
import { findInteraction, interactionClient, requireStartingBrowser } from '../identity-app/interaction';
import { handOffLocked, phoneConfirmed, waitingPhones } from '../identity-app/phone-confirmation';
import { deviceStatus } from '../identity-app/steps';
import { completedInteraction } from '../identity-app/used-flows';
import { flowAnswerFor } from '../qa/choose-flow-answer';

/**
 * Handles GET /auth/status?interaction=…&browser=…: where the app stands, as JSON
 * `{ status: "waiting" | "confirming" | "in_progress" | "decided" | "locked", step?, steps, message }`.
 * A page that polls may outlive its verification (another tab continued it, the Back button, a
 * long pause), so those states are answers too, 200 like the others, never errors a browser would
 * log: `{ status: "completed", message }` once it was completed, `{ status: "gone", message }` when
 * it is unknown or has expired. Errors are RFC 6749 JSON: 400 for a missing parameter, 403 for a
 * wrong browser secret (no page of ours sends either).
 * @see identity-app/steps.ts `deviceStatus`
 */
export async function authorizationStatusEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const parameters = queryParameters(new URL(request.url));
  const interactionId = parameters.require('interaction');
  const browser = parameters.require('browser');
  const interaction = await context.interactions.get(interactionId);
  const headers = { 'Cache-Control': 'no-store' };
  if (!interaction) {
    const completed = (await completedInteraction(context, interactionId)) !== undefined || (await context.interactions.wasTaken(interactionId));
    return Response.json(
      completed
        ? { status: 'completed', message: 'this verification has already been completed' }
        : { status: 'gone', message: 'this verification is unknown or has expired; start again from the application' },
      { headers },
    );
  }
  requireStartingBrowser(interaction, browser);
  return Response.json(deviceStatus(interaction, context.now()), { headers });
}

/**
 * Handles GET /auth/continue?interaction=…&browser=…: once the app decided on another device,
 * 303 to the client (code, state, iss; or access_denied), exactly once. Before that, the page
 * again, saying so (409). Errors are pages: 400 unknown, expired or completed; 403 wrong secret.
 * @see spec 4.2; RFC 6749 §4.1.2
 */
export function authorizationContinueEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = queryParameters(new URL(request.url));
    const interactionId = parameters.require('interaction');
    const interaction = await findInteraction(context, interactionId);
    hints.uiLocales = interaction.request.uiLocales;
    requireStartingBrowser(interaction, parameters.require('browser'));
    // HEAD is safe (RFC 9110 §9.2.1): it must not use up the one delivery of the code.
    if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
    if (!interaction.decision) {
      return interactionPage(context, pageLanguage(request, context, hints), {
        client: interactionClient(context, interaction),
        interactionId,
        interaction,
        status: 409,
        qa: await flowAnswerFor(request, context, interaction),
        message: (t) =>
          phoneConfirmed(interaction)
            ? t.phoneNotFinished
            : handOffLocked(interaction)
              ? t.handOffLocked
              : waitingPhones(interaction, context.now()).length > 0
                ? t.phoneNotConfirmed
                : t.phoneNotOpened,
      });
    }
    return await completeInteraction(context, interactionId, interaction.decision);
  });
}

/**
 * Handles GET /auth/page?interaction=…&browser=…[&link=shown]: the authorization page of an open
 * interaction again, for the browser that started it (a reload; the language switch comes back
 * here, since GET /auth used up its request_uri); `link=shown` prints the QR code's link as text,
 * which the page otherwise leaves out (a shared screen shows only the QR code). It changes
 * nothing, so HEAD is the same without a body. Errors are pages: 400 unknown, expired or
 * completed; 403 wrong secret.
 * @see spec 4.2
 */
export function authorizationPageEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = queryParameters(new URL(request.url));
    const interactionId = parameters.require('interaction');
    const interaction = await findInteraction(context, interactionId);
    hints.uiLocales = interaction.request.uiLocales;
    requireStartingBrowser(interaction, parameters.require('browser'));
    return interactionPage(context, pageLanguage(request, context, hints), {
      client: interactionClient(context, interaction),
      interactionId,
      interaction,
      showLink: parameters.get('link') === 'shown',
      qa: await flowAnswerFor(request, context, interaction),
    });
  });
}

/** Handles GET /assets/auth-page.js. */
export async function authorizationPageScriptEndpoint(): Promise<Response> {
  return new Response(authorizationPageScript(), {
    status: 200,
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      // Revalidated on every load, so a new emulator version is picked up at once.
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
