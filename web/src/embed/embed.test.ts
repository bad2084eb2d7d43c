import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_VARIANTS } from '../variants/variant';
import { VIEWS, viewsFor } from '../views/registry';
import { VIEW_IDS } from '../views/ids';
import { decodeEmbed, encodeEmbed, type EmbedOptions } from './options';
import { heightOf, iframeSnippet, resizeSnippet } from './snippets';
import { reservedHeight, VIEWS_OF } from './reserve';

const scenario = { script: 'select 1;', variants: DEFAULT_VARIANTS.map((v) => ({ ...v })), settings: {}, at: 7 };

describe('embed addresses', () => {
  it('the view ids are the registry’s', () => {
    expect([...VIEW_IDS].sort()).toEqual(VIEWS.map((v) => v.id).sort());
  });

  it('the height a widget reserves counts the views each engine really shows', () => {
    for (const profile of ['pg', 'yb'] as const) {
      expect(VIEWS_OF[profile]).toEqual(viewsFor(profile).map((v) => v.id));
    }
    // Each view shown adds to the height; two engines side by side take the taller column.
    expect(reservedHeight(['pg'], ['btree', 'pool'], 900)).toBeGreaterThan(reservedHeight(['pg'], ['btree'], 900));
    expect(reservedHeight(['pg', 'yb'], null, 900)).toBe(Math.max(reservedHeight(['pg'], null, 900), reservedHeight(['yb'], null, 900)));
  });

  it('round-trip every option', () => {
    const options = fc.record({
      theme: fc.constantFrom('light', 'dark', 'auto') as fc.Arbitrary<EmbedOptions['theme']>,
      views: fc.option(fc.subarray([...VIEW_IDS], { minLength: 1 }), { nil: null }),
      variants: fc.option(fc.subarray(['pg', 'yb'], { minLength: 1 }), { nil: null }),
      at: fc.option(fc.nat(100_000), { nil: undefined }),
      readonly: fc.boolean(),
      autoplay: fc.boolean(),
      title: fc.option(fc.string({ minLength: 1, maxLength: 100 }).filter((t) => t.trim() !== '' && t.trim() === t), { nil: null }),
    });
    fc.assert(
      fc.property(options, (o) => {
        const d = decodeEmbed(encodeEmbed(scenario, o));
        expect(d.kind).toBe('embed');
        if (d.kind !== 'embed') return;
        expect(d.options).toEqual({ ...o, at: o.at ?? scenario.at });
        expect(d.scenario.script).toBe(scenario.script);
      }),
    );
  });

  it('a variant name with a comma survives', () => {
    const s = { ...scenario, variants: [{ id: 'v1', name: 'yb, batches of 200', profile: 'yb' as const, overrides: {} }] };
    const d = decodeEmbed(encodeEmbed(s, { variants: ['yb, batches of 200'] }));
    expect(d.kind === 'embed' && d.options.variants).toEqual(['yb, batches of 200']);
  });

  it.each([
    ['', 'has no scenario'],
    ['#/embed?v=1&s=abc', 'damaged'],
    ['#/embed?v=9&s=abc', 'newer IndexLab'],
    [`${encodeEmbed(scenario)}&theme=pink`, 'theme is "pink"'],
    [`${encodeEmbed(scenario)}&views=btree,nope`, 'there is no view "nope"'],
    [`${encodeEmbed(scenario)}&variant=zz`, 'has no variant "zz"'],
    [`${encodeEmbed(scenario)}&at=-3`, 'at is "-3"'],
    [`${encodeEmbed(scenario)}&readonly=maybe`, 'readonly is "maybe"'],
    [`${encodeEmbed(scenario)}&foo=bar`, 'there is no option "foo"; the options are theme, views'],
    [`${encodeEmbed(scenario)}&theme=dark&theme=light`, 'theme is given 2 times'],
  ])('%s says what is wrong', (hash, says) => {
    const d = decodeEmbed(hash);
    expect(d.kind).toBe('error');
    expect(d.kind === 'error' && d.message).toContain(says);
  });
});

describe('embed titles', () => {
  it('a long title is cut with an ellipsis, never silently', () => {
    const d = decodeEmbed(encodeEmbed(scenario, { title: 'x'.repeat(3000) }));
    expect(d.kind === 'embed' && d.options.title).toBe(`${'x'.repeat(119)}…`);
    const short = decodeEmbed(encodeEmbed(scenario, { title: '  Page splits  ' }));
    expect(short.kind === 'embed' && short.options.title).toBe('Page splits');
  });
});

describe('snippets', () => {
  it('escape what they quote', () => {
    const s = iframeSnippet('https://x/embed.html#/embed?v=1&s=a"b', 'Tom & "Jerry" <3');
    expect(s).toContain('src="https://x/embed.html#/embed?v=1&amp;s=a&quot;b"');
    expect(s).toContain('title="Tom &amp; &quot;Jerry&quot; &lt;3"');
    expect(s).toContain('loading="lazy"');
    expect(resizeSnippet('https://a.example</script>')).not.toContain('</script>"');
  });

  it('a host trusts only a sane height', () => {
    expect(heightOf({ type: 'indexlab:height', height: 512.2 })).toBe(513);
    expect(heightOf({ type: 'indexlab:height', height: 1e9 })).toBe(10_000);
    expect(heightOf({ type: 'indexlab:height', height: 'big' })).toBeNull();
    expect(heightOf({ type: 'other', height: 100 })).toBeNull();
    expect(heightOf(null)).toBeNull();
  });
});
