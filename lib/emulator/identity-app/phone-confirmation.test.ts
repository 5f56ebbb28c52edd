import { describe, expect, it } from 'vitest';
import type { Interaction } from '../state';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  MAX_WAITING_PHONES,
  MAX_WRONG_CODES,
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

describe('the phones waiting for confirmation', () => {
  it('each get their own device secret and a code no other waiting phone shows, up to MAX_WAITING_PHONES', () => {
    const interaction = newInteraction();
    const phones = Array.from({ length: MAX_WAITING_PHONES }, () => addWaitingPhone(interaction));
    expect(addWaitingPhone(interaction)).toBe('full');
    const added = phones.filter((phone) => phone !== 'full');
    expect(added).toHaveLength(MAX_WAITING_PHONES);
    expect(new Set(added.map((phone) => phone.code)).size).toBe(MAX_WAITING_PHONES);
    expect(new Set(added.map((phone) => phone.deviceSecret)).size).toBe(MAX_WAITING_PHONES);
    for (const phone of added) expect(phone.deviceSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(waitingPhones(interaction)).toEqual(added);
  });

  it('are found by their device secret or their code, exactly', () => {
    const interaction = newInteraction();
    const first = addWaitingPhone(interaction);
    const second = addWaitingPhone(interaction);
    if (first === 'full' || second === 'full') throw new Error('unreachable');
    expect(waitingPhone(interaction, second.deviceSecret)).toBe(second);
    expect(waitingPhone(interaction, first.deviceSecret)).toBe(first);
    expect(waitingPhone(interaction, `${first.deviceSecret}x`)).toBeUndefined();
    expect(waitingPhone(interaction, first.deviceSecret.slice(0, -1))).toBeUndefined();
    expect(phoneShowing(interaction, second.code)).toBe(second);
    expect(phoneShowing(interaction, first.code)).toBe(first);
    expect(phoneShowing(interaction, first.code.slice(0, 5))).toBeUndefined();
    expect(phoneShowing(interaction, formatConfirmationCode(first.code))).toBeUndefined();
  });

  it('give way to the one the computer confirms, which alone holds the interaction', () => {
    const interaction = newInteraction();
    addWaitingPhone(interaction);
    const mine = addWaitingPhone(interaction);
    if (mine === 'full') throw new Error('unreachable');
    expect(phoneConfirmed(interaction)).toBe(false);
    confirmPhone(interaction, mine);
    expect(phoneConfirmed(interaction)).toBe(true);
    expect(interaction.app.deviceSecret).toBe(mine.deviceSecret);
    expect(interaction.app.openedElsewhere).toBe(true);
    expect(waitingPhones(interaction)).toEqual([]);
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
