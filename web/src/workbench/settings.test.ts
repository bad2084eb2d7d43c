import { describe, expect, it } from 'vitest';
import { filterSettings, settingsLines, type SettingRow } from './settings';

const row = (name: string, description: string): SettingRow => ({
  name,
  description,
  default: '1',
  type: 'integer',
  unit: '',
  min: '',
  max: '',
  values: [],
  scope: 'yb',
});

describe('settings', () => {
  it('turns overrides into name=value lines, dropping blanks and line breaks', () => {
    expect(settingsLines({ network: ' multi-az ', yb_bnl_batch_size: '', x: 'a\nb=c' })).toBe(
      'network=multi-az',
    );
  });

  it('filters by name or description', () => {
    const rows = [row('network', 'Round trip'), row('block_size', 'SST data block')];
    expect(filterSettings(rows, 'ROUND').map((r) => r.name)).toEqual(['network']);
    expect(filterSettings(rows, 'block').map((r) => r.name)).toEqual(['block_size']);
    expect(filterSettings(rows, '')).toHaveLength(2);
  });
});
