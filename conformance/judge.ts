/**
 * Decides a case from what the kit saw: by itself, from the canary (the given name only this
 * case's ID token carried), the relying party's answers in the browser, and what the emulator
 * says it did to the flow. Pure, so every rule is tested on its own (judge.test.ts).
 */
import type { ConformanceCase } from './cases';

/** What the kit saw during one case. */
export interface Observation {
  /** the case could not be driven to its end: what went wrong (the kit's own words) */
  driverError?: string;
  /** the relying party never answered the browser: what it was waiting for */
  hung?: string;
  /** the browser reached the service's authorization page */
  reachedService: boolean;
  /** the start control the kit pressed, described for a person (`button "Start verification"`) */
  startControl?: string;
  /** the URL of the page the kit pressed it on */
  startPageUrl?: string;
  /** the page the case ended on */
  finalUrl: string;
  /**
   * The browser could not load a page: the case ended on its error page. Where (a relying party's
   * origin or not) and why, in the browser's words (`net::ERR_CONNECTION_RESET`).
   */
  browserFailure?: { url: string; errorText: string; relyingParty: boolean };
  /** that page's title */
  finalTitle?: string;
  /** the start of that page's visible text */
  finalText?: string;
  /** the canary appears on that page (its text or its markup) */
  canarySeen: boolean;
  /** the relying party's answers with a 5xx status during the case */
  serverErrors: readonly { status: number; url: string }[];
  /** where the page or the browser used the `picture` URL the case sent (picture cases only) */
  pictureUses: readonly string[];
  /** the emulator saw the case's flow (its pushed authorization request) */
  flowSeen: boolean;
  /** the emulator's QA API could not say what it did to the flow: why (then `applied` is unknown) */
  flowUnread?: string;
  /** the faults the emulator says it applied to the case's flow */
  applied: readonly string[];
  /** the verified claims the relying party requested at PAR, when the emulator saw the request */
  requestedClaims?: readonly string[];
  /** how many times the relying party fetched the JWKS during the case */
  jwksFetches: number;
}

export type VerdictStatus = 'pass' | 'fail' | 'error' | 'not_applicable';

export interface Verdict {
  status: VerdictStatus;
  /** one or two sentences: why */
  reason: string;
}

/** The verdict of `testCase` on what was seen. */
export function judge(testCase: ConformanceCase, seen: Observation): Verdict {
  if (seen.driverError !== undefined) return { status: 'error', reason: seen.driverError };
  if (seen.browserFailure !== undefined) {
    const { url, errorText, relyingParty } = seen.browserFailure;
    // A relying party that drops the browser's request has not answered it: as a 5xx, a failure.
    if (relyingParty) {
      return {
        status: 'fail',
        reason: `The relying party did not answer the browser: loading ${url} failed with ${errorText}. A failure must be answered with a page that explains it.`,
      };
    }
    return { status: 'error', reason: `The browser could not load ${url} (${errorText}), so the case could not be driven to its end.` };
  }
  if (seen.flowUnread !== undefined) {
    return {
      status: 'error',
      reason: `The emulator's QA API could not say what it did to this flow (${seen.flowUnread}), so whether its fault was applied is unknown; the page it ended on: ${seen.finalUrl}.`,
    };
  }
  const missing = testCase.faults.filter((fault) => !seen.applied.includes(fault));
  if (missing.length > 0) return notApplied(testCase, seen, missing);
  if (seen.hung !== undefined) return { status: 'fail', reason: seen.hung };
  const crash = seen.serverErrors[0];
  if (crash) {
    return {
      status: 'fail',
      reason: `The relying party crashed: it answered ${crash.status} at ${crash.url}${seen.serverErrors.length > 1 ? ` (and ${seen.serverErrors.length - 1} more 5xx)` : ''}. A failure must be answered with a page that explains it, never a server error.`,
    };
  }
  switch (testCase.expect) {
    case 'accepted':
      if (seen.canarySeen) return { status: 'pass', reason: `Accepted: the verified given name appears on ${seen.finalUrl}.${jwksNote(testCase, seen)}` };
      return {
        status: 'fail',
        reason: `Refused a verification it must accept: ${pressedAndEnded(seen)}; the verified given name never appears there.${refusedAcceptanceHint(testCase, seen)}`,
      };
    case 'refused':
      if (seen.canarySeen) {
        return { status: 'fail', reason: `Accepted what it must refuse: the given name of the spoiled ID token appears on ${seen.finalUrl}. ${testCase.what}` };
      }
      return { status: 'pass', reason: `Refused, without a server error (the page it ended on: ${seen.finalUrl}).` };
    case 'portrait_not_shown': {
      const [use] = seen.pictureUses;
      if (use)
        return {
          status: 'fail',
          reason: `Used the picture URL that is not an image: ${seen.pictureUses.join('; ')}. Only a base64 JPEG data URI is a portrait (spec 2.3).`,
        };
      return {
        status: 'pass',
        reason: `Neither the page nor the browser used the picture URL; the relying party ${seen.canarySeen ? 'completed the verification without it' : 'refused the verification'}.`,
      };
    }
  }
}

/** A case whose fault the emulator did not apply proves nothing: say why, and what to do. */
function notApplied(testCase: ConformanceCase, seen: Observation, missing: readonly string[]): Verdict {
  if (missing.includes('picture_not_image') && seen.requestedClaims !== undefined && !seen.requestedClaims.includes('picture')) {
    return { status: 'not_applicable', reason: 'The relying party did not request picture, so no picture could be spoiled.' };
  }
  if (!seen.reachedService && !seen.flowSeen) {
    if (seen.startControl !== undefined) {
      return {
        status: 'error',
        reason: `The relying party never sent the service a pushed authorization request (the emulator saw none): ${pressedAndEnded(seen)}. If that is not its start control, name it with --start-selector; else check --start-url.`,
      };
    }
    return {
      status: 'error',
      reason: `The relying party never sent the service a pushed authorization request (the emulator saw none), and ended on ${seen.finalUrl}${whatItShows(seen)}. If its start control did not do that, check --start-url and --start-selector.`,
    };
  }
  if (!seen.reachedService && testCase.armedFor === 'flow') {
    return {
      status: 'error',
      reason: `The browser never reached the service's authorization page: the relying party stopped after its pushed authorization request, on ${seen.finalUrl}.`,
    };
  }
  return {
    status: 'error',
    reason: `The emulator did not apply ${missing.map((fault) => `'${fault}'`).join(' and ')} to this flow, so the case proves nothing (the page it ended on: ${seen.finalUrl}).`,
  };
}

function jwksNote(testCase: ConformanceCase, seen: Observation): string {
  if (!testCase.needsJwksFetch) return '';
  return ` It fetched the JWKS ${seen.jwksFetches === 1 ? 'once' : `${seen.jwksFetches} times`} for the new signing key.`;
}

/** What the kit did and where it ended: `the kit pressed button "Start" on A and ended on B ("Title": text)`. */
function pressedAndEnded(seen: Observation): string {
  const ended = `ended on ${seen.finalUrl}${whatItShows(seen)}`;
  if (seen.startControl === undefined) return `it ${ended}`;
  return `the kit pressed ${seen.startControl}${seen.startPageUrl === undefined ? '' : ` on ${seen.startPageUrl}`} and ${ended}`;
}

/** The final page's title and the start of its text, in brackets; nothing when neither is known. */
function whatItShows(seen: Observation): string {
  const title = seen.finalTitle ? `"${seen.finalTitle}"` : undefined;
  const shown = [title, seen.finalText].filter((part) => part !== undefined && part !== '').join(': ');
  return shown ? ` (${shown})` : '';
}

function refusedAcceptanceHint(testCase: ConformanceCase, seen: Observation): string {
  if (testCase.needsJwksFetch && seen.jwksFetches === 0) {
    return ' It did not fetch the JWKS for the new kid: a relying party must fetch it again when a token names a kid it does not know (OpenID Connect Core 10.1.1).';
  }
  // Said only when the emulator saw the request: the kit recognises an acceptance by the given name.
  if (seen.requestedClaims !== undefined && !seen.requestedClaims.includes('given_name')) {
    const asked = seen.requestedClaims.length === 0 ? 'no verified claims' : seen.requestedClaims.join(', ');
    return ` Its pushed authorization request did not ask for given_name (it asked for ${asked}): the kit recognises an accepted verification by the verified given name, so the relying party must request it and show it.`;
  }
  return '';
}
