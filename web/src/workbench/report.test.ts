import { describe, expect, it } from 'vitest';
import { firstError, firstLine, keyMetrics, offsetOf } from './report';

describe('report helpers', () => {
  it('maps a line and column to an offset, clamped into the text', () => {
    const doc = 'select 1;\nselect x frm t;\n';
    expect(offsetOf(doc, 1, 1)).toBe(0);
    expect(offsetOf(doc, 2, 10)).toBe(19);
    expect(doc.slice(offsetOf(doc, 2, 10))).toMatch(/^frm/);
    expect(offsetOf(doc, 99, 99)).toBe(doc.length);
    expect(offsetOf(doc, 0, 0)).toBe(0);
  });

  it('finds the error and shows key counters in order', () => {
    const err = { message: 'boom', hint: null, line: 2, column: 3, kind: 'Syntax' };
    const columns = [{ run: undefined }, { run: { report: { error: err }, trace: null } }] as unknown as Parameters<typeof firstError>[0];
    expect(firstError(columns)).toEqual(err);
    // A variant's bad setting is not the script's error: the editor marks no line for it.
    const setting = { message: '100000 is outside the valid range for parameter "num_tablets"', hint: null, line: 0, column: 0, kind: 'Setting' };
    const only = [{ run: { report: { error: setting }, trace: null } }] as unknown as Parameters<typeof firstError>[0];
    expect(firstError(only)).toBeNull();
    expect(keyMetrics('pg', { shared_hit: 616 })[0]).toEqual(['shared_hit', 616]);
    expect(keyMetrics('pg', {})[1]).toEqual(['shared_read', 0]);
    expect(firstLine('select *\nfrom t')).toBe('select * …');
  });
});
