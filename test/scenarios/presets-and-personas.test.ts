/**
 * Each preset suggests a persona of the embedded emulator that shows it best (the picker names
 * it): the persona must exist.
 */
import { describe, expect, it } from 'vitest';
import { personas } from '@/lib/emulator';
import { PRESETS } from '@/lib/verification/presets';

describe('presets', () => {
  it('each name a persona of the emulator', () => {
    const ids = new Set(personas.map((p) => p.id));
    for (const preset of PRESETS) expect(ids.has(preset.persona), preset.id).toBe(true);
  });
});
