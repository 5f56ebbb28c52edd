import { describe, expect, it } from 'vitest';
import { TRUST_FRAMEWORKS } from '@/lib/oidc';
import { trustFrameworkChoices } from './trust-frameworks';

describe('trustFrameworkChoices', () => {
  it('offers what discovery lists, in its order', () => {
    expect(trustFrameworkChoices({ trust_frameworks_supported: ['standard_etsi', 'standard', 'eidas'] })).toEqual(['standard_etsi', 'standard', 'eidas']);
  });

  it('drops listed values that are not names (not strings, markup, too long)', () => {
    expect(trustFrameworkChoices({ trust_frameworks_supported: ['standard', 42, '<b>x</b>', 'a'.repeat(65), ''] })).toEqual(['standard']);
  });

  it.each([
    ['no list', {}],
    ['an empty list', { trust_frameworks_supported: [] }],
    ['a list of nothing usable', { trust_frameworks_supported: [null, 'two words'] }],
    ['a string instead of a list', { trust_frameworks_supported: 'standard' }],
  ])('falls back to the spec’s frameworks for %s', (_name, metadata) => {
    expect(trustFrameworkChoices(metadata)).toEqual([...TRUST_FRAMEWORKS]);
  });
});
