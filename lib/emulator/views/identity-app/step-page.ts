/**
 * A step of the simulated identity app: the screen of each of the five steps (a file each beside
 * this one) in the app's page, with the app bar's way back and cancel.
 * @see spec part 1 (the mobile identity app)
 */
import type { EmulatorContext } from '../../context';
import type { AppStepId } from '../../identity-app/steps';
import type { AppMessages } from '../app-messages';
import type { SafeHtml } from '../html';
import { appPage, words, type ScreenOptions, type StepScreenOptions } from './app-page';
import { chipScreen } from './chip-screen';
import { consentScreen } from './consent-screen';
import { documentScreen } from './document-screen';
import { faceScreen } from './face-screen';
import { scanScreen } from './scan-screen';

/**
 * One step of the app, as allowed by endpoints/identity-app.ts (which checked the step is reachable).
 * @param options.message a problem to show (with `status`)
 */
export function appScreenPage(
  context: EmulatorContext,
  options: ScreenOptions & { step: AppStepId; message?: (t: AppMessages) => string; status?: number },
): Response {
  const { t } = words(options);
  const content = SCREENS[options.step](context, { ...options, message: options.message?.(t) });
  return appPage(context, {
    ...options,
    status: options.status ?? 200,
    title: t.steps[options.step],
    content,
    cancellable: true,
  });
}

/** A step's screen: what the app's page shows below its progress. */
type Screen = (context: EmulatorContext, options: StepScreenOptions) => SafeHtml;

/** The screen of each step. */
const SCREENS: Record<AppStepId, Screen> = {
  document: documentScreen,
  scan: scanScreen,
  chip: chipScreen,
  face: faceScreen,
  consent: consentScreen,
};
