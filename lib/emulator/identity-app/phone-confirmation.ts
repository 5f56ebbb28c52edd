/**
 * The phone hand-off's confirmation: a phone that opens the QR link may use the identity app only
 * once the computer that started the verification has confirmed it, by typing the short code the
 * phone shows. Whoever sees the QR code (a shared screen, a recording, someone looking over a
 * shoulder) can open the link, but gets a code of their own, which the person at the computer
 * never types: only the phone in the hands of that person continues.
 *
 * The code goes from the phone to the computer, not the other way: a code shown next to the QR
 * code would be on the same shared screen as the QR code, and an onlooker would read both. The
 * computer is the side that receives the result, so it is the side that chooses which phone it
 * trusts (DECISIONS.md "The phone's confirmation").
 *
 * Codes follow RFC 8628 §6.1: six characters from a base-20 alphabet of consonants (no vowels, so
 * no words; no digits, so no 0/O or 1/I mix-ups), read case-insensitively with punctuation and
 * spaces ignored, shown as two groups of three. Only the starting browser (the browser secret)
 * can type codes, and after MAX_WRONG_CODES wrong ones the hand-off is locked for the interaction.
 * @see spec part 1 (steps 4–6), 4.2; RFC 8628 §5.1, §6.1 (https://www.rfc-editor.org/rfc/rfc8628);
 *   https://datatracker.ietf.org/doc/draft-ietf-oauth-cross-device-security/
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { randomToken, type Interaction, type PhoneConfirmation, type WaitingPhone } from '../state';

// The confirmation is kept in the interaction record (state.ts `phoneConfirmation`), next to the
// app's progress, so every instance sharing the store sees it and it expires with the interaction.

/** RFC 8628 §6.1's base-20 alphabet: consonants only. */
export const CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
/** 20^6 = 64 million codes: with MAX_WRONG_CODES tries, a guess succeeds about once in 13 million. */
export const CODE_LENGTH = 6;
/** Wrong codes typed on the computer before the hand-off is locked. */
export const MAX_WRONG_CODES = 5;
/**
 * Phones that may wait for confirmation at once. Anyone who sees the QR code can open it, so the
 * list is bounded; when every place is taken by a phone still within its WAITING_PHONE_SECONDS, a
 * new phone is told how soon to try again rather than pushing a waiting one out.
 */
export const MAX_WAITING_PHONES = 10;
/**
 * How long a phone's code may wait to be typed on the computer: time enough to scan the QR code
 * and type six letters, and short, so that onlookers who opened the link do not hold the places
 * for long. A phone whose wait has ended gets a new code when it continues or opens the link
 * again; its old code, typed on the computer, is "expired", never counted as a wrong code.
 */
export const WAITING_PHONE_SECONDS = 90;

/** A new random code, uniformly from CODE_ALPHABET (`randomInt` draws without modulo bias). */
export function newConfirmationCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/** A code as it is shown: two groups of three, "BCD-FGH". */
export function formatConfirmationCode(code: string): string {
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/**
 * What a person typed, as a code: upper case, with everything but letters and digits left out
 * (the dash, spaces), as RFC 8628 §6.1 recommends. Bounded, so a pasted essay is not hashed.
 */
export function normalizeConfirmationCode(typed: string): string {
  return typed
    .slice(0, 64)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/**
 * Whether two secrets are equal, in constant time: over SHA-256 digests, so neither the content
 * nor the length of the expected value leaks through timing.
 */
export function sameSecret(expected: string, presented: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

function confirmationOf(interaction: Interaction): PhoneConfirmation {
  interaction.phoneConfirmation ??= { waiting: [], wrongCodes: 0 };
  return interaction.phoneConfirmation;
}

/** Whether a phone's wait for its code to be typed has ended (WAITING_PHONE_SECONDS). */
export function waitEnded(phone: WaitingPhone, now: number): boolean {
  return phone.expiresAt <= now;
}

/** The phones still waiting for the computer's confirmation at `now` (ms since the epoch). */
export function waitingPhones(interaction: Interaction, now: number): readonly WaitingPhone[] {
  return (interaction.phoneConfirmation?.waiting ?? []).filter((phone) => !waitEnded(phone, now));
}

/** Whether the computer has confirmed a phone: it then holds the interaction (`app.deviceSecret`). */
export function phoneConfirmed(interaction: Interaction): boolean {
  return interaction.app.deviceSecret !== undefined;
}

/** Whether too many wrong codes were typed: no phone can be confirmed any more. */
export function handOffLocked(interaction: Interaction): boolean {
  return (interaction.phoneConfirmation?.wrongCodes ?? 0) >= MAX_WRONG_CODES;
}

/** Wrong codes the computer may still type before the hand-off is locked. */
export function triesLeft(interaction: Interaction): number {
  return Math.max(0, MAX_WRONG_CODES - (interaction.phoneConfirmation?.wrongCodes ?? 0));
}

/**
 * The first of `phones` for which `matches` holds. Every phone is compared, whatever matched
 * before, so the time taken does not tell which phone (or whether any) matched.
 */
function findInConstantTime(phones: readonly WaitingPhone[], matches: (phone: WaitingPhone) => boolean): WaitingPhone | undefined {
  let found: WaitingPhone | undefined;
  for (const phone of phones) {
    const match = matches(phone);
    if (match && found === undefined) found = phone;
  }
  return found;
}

/** The phone still waiting at `now` whose device secret this is, compared in constant time. */
export function waitingPhone(interaction: Interaction, deviceSecret: string, now: number): WaitingPhone | undefined {
  return findInConstantTime(waitingPhones(interaction, now), (phone) => sameSecret(phone.deviceSecret, deviceSecret));
}

/**
 * The phone showing this (normalized) code, compared in constant time: one still waiting, or one
 * whose wait has ended (`waitEnded`) and whose place no other phone has taken yet.
 */
export function phoneShowing(interaction: Interaction, code: string): WaitingPhone | undefined {
  return findInConstantTime(interaction.phoneConfirmation?.waiting ?? [], (phone) => sameSecret(phone.code, code));
}

/**
 * Adds a phone that opened the QR link at `now`, with a new device secret and a code no other
 * phone in the list shows, waiting WAITING_PHONE_SECONDS. With MAX_WAITING_PHONES in the list, it
 * takes the place of the phone whose wait ended first; when all are still waiting, it is refused.
 * The caller writes the interaction back.
 * @returns the phone, or how many seconds until a place is free
 */
export function addWaitingPhone(interaction: Interaction, now: number): WaitingPhone | { retryAfterSeconds: number } {
  const confirmation = confirmationOf(interaction);
  if (confirmation.waiting.length >= MAX_WAITING_PHONES) {
    const ended = confirmation.waiting.findIndex((phone) => waitEnded(phone, now));
    if (ended === -1) {
      const firstFree = Math.min(...confirmation.waiting.map((phone) => phone.expiresAt));
      return { retryAfterSeconds: Math.max(1, Math.ceil((firstFree - now) / 1000)) };
    }
    confirmation.waiting.splice(ended, 1);
  }
  let code = newConfirmationCode();
  while (confirmation.waiting.some((phone) => phone.code === code)) code = newConfirmationCode();
  const phone = { deviceSecret: randomToken(), code, expiresAt: now + WAITING_PHONE_SECONDS * 1000 };
  confirmation.waiting.push(phone);
  return phone;
}

/** Counts a wrong code typed on the computer; returns the tries left. The caller writes the interaction back. */
export function recordWrongCode(interaction: Interaction): number {
  confirmationOf(interaction).wrongCodes += 1;
  return triesLeft(interaction);
}

/**
 * The computer confirmed `phone`: it alone holds the interaction from now on (`app.deviceSecret`,
 * which the app's links carry), and the other waiting phones are let go. The caller has claimed
 * the interaction for it atomically (`interactionDevices.setIfAbsent`) and writes it back.
 */
export function confirmPhone(interaction: Interaction, phone: WaitingPhone): void {
  interaction.app.deviceSecret = phone.deviceSecret;
  // The starting browser's status poll shows the phone's progress from now on.
  interaction.app.openedElsewhere = true;
  confirmationOf(interaction).waiting = [];
}
