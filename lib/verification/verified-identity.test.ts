import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type VerifiedClaims } from '@/lib/oidc';
import { portraitOf } from './verified-identity';

const png = Buffer.from('89504e470d0a1a0a', 'hex');
const verified = (picture: string | undefined): VerifiedClaims[] => [{ trustFramework: 'standard', evidence: [], claims: picture ? { picture } : {} }];

describe('portraitOf', () => {
  it('gives the verified portrait’s bytes and type, when it was requested and came back', () => {
    const portrait = portraitOf(verified(`data:image/png;base64,${png.toString('base64')}`), DEFAULT_SELECTION);
    expect(portrait?.contentType).toBe('image/png');
    expect(Buffer.from(portrait!.bytes).equals(png)).toBe(true);
  });

  it('gives nothing for a portrait not requested, not returned, or not a JPEG or PNG data URI', () => {
    const withoutPicture = { ...DEFAULT_SELECTION, claims: { name: { essential: true } } };
    expect(portraitOf(verified(`data:image/png;base64,${png.toString('base64')}`), withoutPicture)).toBeUndefined();
    expect(portraitOf(verified(undefined), DEFAULT_SELECTION)).toBeUndefined();
    expect(portraitOf(verified('data:image/svg+xml;base64,PHN2Zz4='), DEFAULT_SELECTION)).toBeUndefined();
    expect(portraitOf(verified('https://example.com/me.jpg'), DEFAULT_SELECTION)).toBeUndefined();
  });
});
