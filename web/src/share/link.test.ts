// @vitest-environment node
// Scenario links: every scenario survives the round trip; links made by
// earlier versions (frozen here, never edited) still open the same scenario;
// each way a link can be broken gives its own message, never an exception.
import fc from 'fast-check';
import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VARIANTS } from '../variants/variant';
import { decodeLink, encodeLink, fingerprint, MAX_HASH, type Scenario } from './link';

const name = fc.string({ minLength: 1, maxLength: 20 });
const settings = fc.dictionary(fc.stringMatching(/^[a-z_]{1,20}$/), fc.string({ maxLength: 12 }).filter((v) => v.trim() !== ''));
const scenario: fc.Arbitrary<Scenario> = fc.record({
  script: fc.string({ maxLength: 400, unit: 'binary' }),
  variants: fc.oneof(
    fc.constant(DEFAULT_VARIANTS.map((v) => ({ ...v }))),
    fc.array(fc.record({ name, profile: fc.constantFrom<'pg' | 'yb'>('pg', 'yb'), overrides: settings }), { minLength: 1, maxLength: 6 }).map((vs) =>
      vs.map((v, i) => ({ ...v, id: `v${i + 1}` })),
    ),
  ),
  settings,
  at: fc.option(fc.nat({ max: 1_000_000 }), { nil: undefined }),
});

/** What a decoded scenario says, ids aside (they are the page's, not the link's). */
const meaning = (s: Scenario) => ({ ...s, variants: s.variants.map(({ name: n, profile, overrides }) => ({ n, profile, overrides })) });

describe('scenario links', () => {
  it('give back every scenario they were made from', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const d = decodeLink(encodeLink(s));
        expect(d.kind).toBe('scenario');
        if (d.kind === 'scenario') expect(meaning(d.scenario)).toEqual(meaning(s));
      }),
      { numRuns: 300 },
    );
  });

  it('store only what differs from the default page', () => {
    const plain = encodeLink({ script: 'select 1;\n', variants: DEFAULT_VARIANTS.map((v) => ({ ...v })), settings: { network: '  ' } });
    expect(plain).toMatch(/^#\/play\?v=1&s=N4IgziBc4KYDYwMYBcAEBGA3AHQHYgF8g&k=[0-9a-f]{8}$/);
  });

  it('refuse a link whose scenario was changed after it was made, naming the check', () => {
    const link = encodeLink({ script: 'create table t (id int primary key);\nselect * from t where id < 100;\n', variants: DEFAULT_VARIANTS.map((v) => ({ ...v })), settings: {} });
    const at = link.indexOf('&s=') + 40;
    // One character changed: lz-string would still decompress it, to another script.
    const changed = link.slice(0, at) + (link[at] === 'A' ? 'B' : 'A') + link.slice(at + 1);
    const d = decodeLink(changed);
    expect(d.kind).toBe('error');
    expect(d.kind === 'error' && d.message).toMatch(/changed after it was made \(its check, k=…, does not match/);
    // Without its check, the same text is an older link and opens (see FROZEN_V1).
    expect(decodeLink(changed.replace(/&k=[0-9a-f]+$/, '')).kind).not.toBe('none');
    expect(decodeLink(link).kind).toBe('scenario');
  });

  // Made by version 1 and frozen: they must open the same scenario in every later version.
  const FROZEN_V1: [string, Scenario][] = [
    ['#/play?v=1&s=N4IgziBc4KYDYwMYBcAEBGA3AHQHYgF8g', { script: 'select 1;\n', variants: DEFAULT_VARIANTS.map((v) => ({ ...v })), settings: {}, at: undefined }],
    [
      '#/play?v=1&s=N4IgziBcIMYE4FMCGAXBACFSBGAbDK6AFAJYAm6JAdoQA5wkC2ScAnugNYKsCUA3AB0q1MAjiFqKAPaZ0o-DEIBzBFTGoEAfVEMEYIgEYANAYAMp-kJBGQANygBtByFbYj6bKhgALPeikAZuhmAEwALNYu2NagrprYVLjxXt7aJABeCFAgoREAvgC6Rs60SpGlMYVFIFJQoGooAO5ScBzZjACuuCgkALRI6SB5NjBQYSF5QA',
      {
        script: 'create table t (id int primary key);\ninsert into t select generate_series(1,100);\n',
        variants: [
          { id: 'v1', name: 'yb, batches of 1024', profile: 'yb', overrides: { yb_bnl_batch_size: '1024' } },
          { id: 'pg', name: 'pg', profile: 'pg', overrides: {} },
        ],
        settings: { network: 'multi-az' },
        at: 42,
      },
    ],
  ];

  it('made by version 1 still open the same scenario', () => {
    for (const [link, want] of FROZEN_V1) expect(decodeLink(link)).toEqual({ kind: 'scenario', scenario: want });
  });

  it('say what is wrong with a broken link, whatever broke it', () => {
    const message = (hash: string) => {
      const d = decodeLink(hash);
      return d.kind === 'error' ? d.message : `no error: ${d.kind}`;
    };
    const payload = (p: unknown) => `#/play?v=1&s=${compressToEncodedURIComponent(JSON.stringify(p))}`;
    expect(decodeLink('').kind).toBe('none');
    expect(message('#/lesson/x')).toMatch(/There is no page "#\/lesson\/x"/);
    expect(message('#/play?s=garbage')).toMatch(/no format version/);
    expect(message('#/play?v=9&s=abc')).toMatch(/newer IndexLab \(format 9\)/);
    expect(message('#/play?v=one&s=abc')).toMatch(/"one" is not one IndexLab ever made/);
    expect(message('#/play?v=1')).toMatch(/carries no scenario/);
    expect(message('#/play?v=1&s=garbage')).toMatch(/damaged/);
    // Cut short when copied.
    const long = FROZEN_V1[1]?.[0] ?? '';
    expect(message(long.slice(0, long.length - 30))).toMatch(/damaged|not valid/);
    expect(message(`#/play?v=1&s=${'A'.repeat(MAX_HASH)}`)).toMatch(/too long \(256 kB\)/);
    expect(message(payload([1, 2]))).toMatch(/not an object/);
    expect(message(payload({ v: [] }))).toMatch(/has no script/);
    expect(message(payload({ s: 'x', v: [['a', 'mysql', {}]] }))).toMatch(/variant 1 is not \[name, "pg" or "yb", settings\]/);
    expect(message(payload({ s: 'x', v: Array(7).fill(['a', 'pg', {}]) }))).toMatch(/list of 1 to 6/);
    expect(message(payload({ s: 'x', o: { a: 1 } }))).toMatch(/settings are not name\/value text/);
    expect(message(payload({ s: 'x', c: -1 }))).toMatch(/position is not a whole number/);
    expect(message(payload({ s: 'x'.repeat(200_001) }))).toMatch(/at most 200000/);
    // A script is text: markup in it stays text (the page renders it as such).
    const html = decodeLink(payload({ s: '<img src=x onerror=alert(1)>' }));
    expect(html.kind === 'scenario' && html.scenario.script).toBe('<img src=x onerror=alert(1)>');
  });

  it('fingerprint the same reports the same way, and different ones differently', () => {
    expect(fingerprint(['{"a":1}', '{"b":2}'])).toBe(fingerprint(['{"a":1}', '{"b":2}']));
    expect(fingerprint(['{"a":1}', '{"b":2}'])).not.toBe(fingerprint(['{"a":1}{"b":2}']));
    expect(fingerprint(['{"a":1}'])).toMatch(/^[0-9a-f]{8}$/);
  });
});
