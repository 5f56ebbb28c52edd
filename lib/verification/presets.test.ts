import { describe, expect, it } from 'vitest';
import { selectionProblems } from '@/lib/oidc/claims-request';
import { PRESETS, findPreset } from './presets';

describe('presets', () => {
  it('have unique ids and selections the service accepts', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    for (const preset of PRESETS) expect(selectionProblems(preset.selection), preset.id).toEqual([]);
  });

  it('are found by id', () => {
    expect(findPreset('etsi')?.selection.trustFramework).toBe('standard_etsi');
    expect(findPreset('nope')).toBeUndefined();
  });
});
