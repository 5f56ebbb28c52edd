import { describe, expect, it } from 'vitest';
import type { Interaction, WaitingPhone } from '../state';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  MAX_WAITING_PHONES,
  MAX_WRONG_CODES,
  WAITING_PHONE_SECONDS,
  addWaitingPhone,
  confirmPhone,
  formatConfirmationCode,
  handOffLocked,
  newConfirmationCode,
  normalizeConfirmationCode,
  phoneConfirmed,
  phoneShowing,
  recordWrongCode,
  triesLeft,
  waitingPhone,
  waitingPhones,
  waitEnded,
} from './phone-confirmation';
import { initialProgress } from './steps';

/** An interaction as GET /auth makes it: no phone yet. */
function newInteraction(): Interaction {
  return {
    clientId: 'demo-client',
    request: {
      redirectUri: 'https://rp.example/cb',
      state: 's',
      nonce: 'n',
      codeChallenge: 'c',
      claims: { trustFramework: 'standard', claims: [], evidence: [] },
    },
    browserSecret: 'b'.repeat(43),
    expiresAt: Date.now() + 600_000,
    app: initialProgress(),
  };
}

describe('confirmation codes (RFC 8628 §6.1)', () => {
  it('are six characters of the base-20 consonant alphabet, shown as two groups of three', () => {
    expect(CODE_ALPHABET).toBe('BCDFGHJKLMNPQRSTVWXZ');
    const codes = Array.from({ length: 500 }, () => newConfirmationCode());
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`));
    // Random: 500 draws from 64 million codes practically never repeat, and use the whole alphabet.
    expect(new Set(codes).size).toBeGreaterThan(495);
    expect(new Set(codes.join(''))).toEqual(new Set(CODE_ALPHABET));
    expect(formatConfirmationCode('BCDFGH')).toBe('BCD-FGH');
  });

  it('are read as typed: any case, dash and spaces left out; anything else is kept, so it does not match', () => {
    expect(normalizeConfirmationCode(' bcd-fgh ')).toBe('BCDFGH');
    expect(normalizeConfirmationCode('B C D F G H')).toBe('BCDFGH');
    expect(normalizeConfirmationCode('bcd–fgh')).toBe('BCDFGH');
    expect(normalizeConfirmationCode('BCD-FG1')).toBe('BCDFG1');
    expect(normalizeConfirmationCode(' - ')).toBe('');
    expect(normalizeConfirmationCode('x'.repeat(10_000))).toHaveLength(64);
  });
});

const NOW = Date.UTC(2026, 10, 29, 12);

/** Adds a phone that must be added. */
function add(interaction: Interaction, now = NOW): WaitingPhone {
  const phone = addWaitingPhone(interaction, now);
  if ('retryAfterSeconds' in phone) throw new Error(`refused: try again in ${phone.retryAfterSeconds} s`);
  return phone;
}

describe('the phones waiting for confirmation', () => {
  it('each get their own device secret and a code no other waiting phone shows, up to MAX_WAITING_PHONES', () => {
    const interaction = newInteraction();
    const added = Array.from({ length: MAX_WAITING_PHONES }, () => add(interaction));
    expect(addWaitingPhone(interaction, NOW)).toEqual({ retryAfterSeconds: WAITING_PHONE_SECONDS });
    expect(new Set(added.map((phone) => phone.code)).size).toBe(MAX_WAITING_PHONES);
    expect(new Set(added.map((phone) => phone.deviceSecret)).size).toBe(MAX_WAITING_PHONES);
    for (const phone of added) expect(phone.deviceSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const phone of added) expect(phone.expiresAt).toBe(NOW + WAITING_PHONE_SECONDS * 1000);
    expect(waitingPhones(interaction, NOW)).toEqual(added);
  });

  it(`wait ${WAITING_PHONE_SECONDS} s: then another phone takes the place of the one whose wait ended first, and onlookers cannot hold every place`, () => {
    const interaction = newInteraction();
    // Ten onlookers open the link, one a second.
    const onlookers = Array.from({ length: MAX_WAITING_PHONES }, (_, second) => add(interaction, NOW + second * 1000));
    // The person's phone, a moment later: told when the first place frees, not to start again.
    const later = NOW + 30_000;
    expect(addWaitingPhone(interaction, later)).toEqual({ retryAfterSeconds: WAITING_PHONE_SECONDS - 30 });
    // One millisecond before the first onlooker's wait ends, still full; at its end, a place.
    const firstEnds = onlookers[0]!.expiresAt;
    expect(addWaitingPhone(interaction, firstEnds - 1)).toEqual({ retryAfterSeconds: 1 });
    expect(waitingPhones(interaction, firstEnds)).toEqual(onlookers.slice(1));
    const mine = add(interaction, firstEnds);
    expect(waitingPhones(interaction, firstEnds)).toEqual([...onlookers.slice(1), mine]);
    expect(phoneShowing(interaction, onlookers[0]!.code)).toBeUndefined();
    // A phone whose wait ended is no longer waiting: its device secret finds nothing.
    expect(waitingPhone(interaction, onlookers[1]!.deviceSecret, onlookers[1]!.expiresAt - 1)).toBe(onlookers[1]);
    expect(waitingPhone(interaction, onlookers[1]!.deviceSecret, onlookers[1]!.expiresAt)).toBeUndefined();
    expect(waitEnded(onlookers[1]!, onlookers[1]!.expiresAt - 1)).toBe(false);
    expect(waitEnded(onlookers[1]!, onlookers[1]!.expiresAt)).toBe(true);
    // Its code is still found, so the computer can say it expired rather than count it wrong.
    expect(phoneShowing(interaction, onlookers[1]!.code)).toBe(onlookers[1]);
  });

  it('are found by their device secret or their code, exactly', () => {
    const interaction = newInteraction();
    const first = add(interaction);
    const second = add(interaction);
    expect(waitingPhone(interaction, second.deviceSecret, NOW)).toBe(second);
    expect(waitingPhone(interaction, first.deviceSecret, NOW)).toBe(first);
    expect(waitingPhone(interaction, `${first.deviceSecret}x`, NOW)).toBeUndefined();
    expect(waitingPhone(interaction, first.deviceSecret.slice(0, -1), NOW)).toBeUndefined();
    expect(phoneShowing(interaction, second.code)).toBe(second);
    expect(phoneShowing(interaction, first.code)).toBe(first);
    expect(phoneShowing(interaction, first.code.slice(0, 5))).toBeUndefined();
    expect(phoneShowing(interaction, formatConfirmationCode(first.code))).toBeUndefined();
  });

  it('give way to the one the computer confirms, which alone holds the interaction', () => {
    const interaction = newInteraction();
    add(interaction);
    const mine = add(interaction);
    expect(phoneConfirmed(interaction)).toBe(false);
    confirmPhone(interaction, mine);
    expect(phoneConfirmed(interaction)).toBe(true);
    expect(interaction.app.deviceSecret).toBe(mine.deviceSecret);
    expect(interaction.app.openedElsewhere).toBe(true);
    expect(waitingPhones(interaction, NOW)).toEqual([]);
    expect(phoneShowing(interaction, mine.code)).toBeUndefined();
  });
});

describe('wrong codes', () => {
  it(`lock the hand-off at the ${MAX_WRONG_CODES}th, counting down the tries left`, () => {
    const interaction = newInteraction();
    expect(triesLeft(interaction)).toBe(MAX_WRONG_CODES);
    const left = Array.from({ length: MAX_WRONG_CODES }, () => {
      expect(handOffLocked(interaction)).toBe(false);
      return recordWrongCode(interaction);
    });
    expect(left).toEqual([4, 3, 2, 1, 0]);
    expect(handOffLocked(interaction)).toBe(true);
    expect(recordWrongCode(interaction)).toBe(0);
    expect(handOffLocked(interaction)).toBe(true);
  });
});
