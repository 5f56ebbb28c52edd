/**
 * The steps of the simulated mobile identity app and the rule that orders them: a step can be
 * shown or acted on only when every step before it is done. The progress lives in the
 * interaction on the server, so a client cannot skip ahead by editing a URL or a form.
 * @see spec part 1 ("scanning an identity document and passing a facial check")
 */
import { findPersona } from '../personas/personas';
import type { AppProgress, Interaction } from '../state';
import { handOffLocked, phoneConfirmed, waitingPhones } from './phone-confirmation';

/** The app's five steps, in order. */
export const APP_STEPS = [
  { id: 'document', title: 'Choose your document' },
  { id: 'scan', title: 'Scan your document' },
  { id: 'chip', title: 'Read the chip' },
  { id: 'face', title: 'Check your face' },
  { id: 'consent', title: 'Share your identity' },
] as const;

export type AppStepId = (typeof APP_STEPS)[number]['id'];

export function isAppStep(value: string): value is AppStepId {
  return APP_STEPS.some((step) => step.id === value);
}

/** 1-based position of a step ("Step n of 5"). */
export function stepNumber(step: AppStepId): number {
  return APP_STEPS.findIndex((candidate) => candidate.id === step) + 1;
}

export function stepTitle(step: AppStepId): string {
  return APP_STEPS[stepNumber(step) - 1]!.title;
}

/** The progress of an interaction that has not been opened in the app yet. */
export function initialProgress(): AppProgress {
  return { documentScanned: false, chipRead: false, faceChecked: false, openedElsewhere: false };
}

/**
 * The furthest step the progress allows. A persona whose face check fails never gets past the
 * face step: verification cannot reach consent, so there is nothing to share.
 */
export function furthestStep(progress: AppProgress): AppStepId {
  const persona = progress.personaId === undefined ? undefined : findPersona(progress.personaId);
  if (!persona) return 'document';
  if (!progress.documentScanned) return 'scan';
  if (!progress.chipRead) return 'chip';
  if (!progress.faceChecked || persona.faceCheck === 'fail') return 'face';
  return 'consent';
}

/** Where the app stands, as the waiting browser shows it (status endpoint and page). */
export interface DeviceStatus {
  /**
   * waiting: no phone opened the link yet; confirming: a phone opened it and waits for its code to
   * be typed on the computer; in_progress: the confirmed phone is in the app; decided: it finished
   * there; locked: too many wrong codes, no phone can continue (identity-app/phone-confirmation.ts)
   */
  status: 'waiting' | 'confirming' | 'in_progress' | 'decided' | 'locked';
  /** the step the app is at (1–5), once a phone is confirmed */
  step?: number;
  steps: number;
  message: string;
}

/** Where the hand-off stands at `now` (ms since the epoch). */
export function deviceStatus(interaction: Interaction, now: number): DeviceStatus {
  const steps = APP_STEPS.length;
  if (interaction.decision) {
    return { status: 'decided', steps, message: 'Finished on your phone. Continuing…' };
  }
  if (!phoneConfirmed(interaction)) {
    if (handOffLocked(interaction)) {
      return { status: 'locked', steps, message: 'The hand-off to a phone is locked: too many wrong codes were typed.' };
    }
    if (waitingPhones(interaction, now).length > 0) {
      return { status: 'confirming', steps, message: 'A phone opened the link: type the code it shows to confirm it.' };
    }
    return { status: 'waiting', steps, message: 'Waiting for your phone…' };
  }
  const step = furthestStep(interaction.app);
  return {
    status: 'in_progress',
    step: stepNumber(step),
    steps,
    message: `Your phone is at step ${stepNumber(step)} of ${steps}: ${stepTitle(step).toLowerCase()}.`,
  };
}
