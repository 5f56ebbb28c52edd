import { describe, expect, it } from 'vitest';
import { selectionProblems } from '@/lib/oidc/claims-request';
import { personas } from '@/lib/emulator';
import { PRESETS, findPreset } from './presets';

describe('presets', () => {
  it('have unique ids and selections the service accepts', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    for (const preset of PRESETS) expect(selectionProblems(preset.selection), preset.id).toEqual([]);
  });

  it('each name a persona of the emulator', () => {
    const ids = new Set(personas.map((p) => p.id));
    for (const preset of PRESETS) expect(ids.has(preset.persona), preset.id).toBe(true);
  });

  it('are found by id', () => {
    expect(findPreset('etsi')?.selection.trustFramework).toBe('standard_etsi');
    expect(findPreset('nope')).toBeUndefined();
  });
});
