// An embed's address: `embed.html#/embed?v=1&s=…` (the scenario, exactly as a
// play link holds it) plus how the widget shows it:
//   theme=light|dark|auto      (auto: the reader's system)
//   views=btree,lsm            (view ids; default: every view of each engine)
//   variant=pg&variant=yb      (variant names, one per parameter: a name may hold a comma; default: all)
//   at=1234                    (the player's starting position; default: the link's, or the end)
//   readonly=0                 (0: the reader may edit the script and run it again; default 1)
//   autoplay=1                 (play from the start once loaded; default 0)
//   title=…                    (the caption above the widget)
// Nothing here becomes HTML: every value is checked and shown as text.
import { decodeQuery, scenarioQuery, type Scenario } from '../share/link';
import { VIEW_IDS, type ViewId } from '../views/ids';

export type EmbedTheme = 'light' | 'dark' | 'auto';

export interface EmbedOptions {
  theme: EmbedTheme;
  /** View ids to show; null: all. */
  views: ViewId[] | null;
  /** Variant names to show; null: all. */
  variants: string[] | null;
  /** The starting position; undefined: the scenario's, or the end. */
  at: number | undefined;
  readonly: boolean;
  autoplay: boolean;
  title: string | null;
}

export const DEFAULT_OPTIONS: EmbedOptions = {
  theme: 'auto',
  views: null,
  variants: null,
  at: undefined,
  readonly: true,
  autoplay: false,
  title: null,
};

export type EmbedDecoded =
  | { kind: 'embed'; scenario: Scenario; options: EmbedOptions }
  | { kind: 'error'; message: string };

const MAX_TITLE = 120;

/** Every parameter an embed's address may hold: the scenario's, then the widget's. */
const SCENARIO_PARAMS = ['v', 's', 'k'];
const OPTION_PARAMS = ['theme', 'views', 'variant', 'at', 'readonly', 'autoplay', 'title'];

/** A title as the caption shows it: at most MAX_TITLE characters, a cut one ending in "…". */
function titleOf(title: string | null): string | null {
  if (title === null || title.trim() === '') return null;
  const chars = [...title.trim()];
  return chars.length <= MAX_TITLE ? chars.join('') : `${chars.slice(0, MAX_TITLE - 1).join('')}…`;
}

function list(value: string | null): string[] | null {
  if (value === null || value.trim() === '') return null;
  return value.split(',').map((x) => x.trim()).filter((x) => x !== '');
}

function flag(params: URLSearchParams, name: string, fallback: boolean): boolean | string {
  const v = params.get(name);
  if (v === null) return fallback;
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return `${name} is "${v.slice(0, 20)}"; use 1 or 0`;
}

/** The options after the scenario: the first thing wrong, in words, or the options. */
function optionsOf(params: URLSearchParams, scenario: Scenario): EmbedOptions | string {
  const unknown = [...params.keys()].find((k) => !SCENARIO_PARAMS.includes(k) && !OPTION_PARAMS.includes(k));
  if (unknown !== undefined) return `there is no option "${unknown.slice(0, 30)}"; the options are ${OPTION_PARAMS.join(', ')}`;
  const repeated = OPTION_PARAMS.find((k) => k !== 'variant' && params.getAll(k).length > 1);
  if (repeated !== undefined) return `${repeated} is given ${params.getAll(repeated).length} times; give it once`;
  const theme = params.get('theme') ?? 'auto';
  if (theme !== 'light' && theme !== 'dark' && theme !== 'auto') return `theme is "${theme.slice(0, 20)}"; use light, dark or auto`;
  const views = list(params.get('views'));
  const unknownView = views?.find((v) => !(VIEW_IDS as readonly string[]).includes(v));
  if (unknownView !== undefined) return `there is no view "${unknownView.slice(0, 30)}"; the views are ${VIEW_IDS.join(', ')}`;
  const chosen = params.getAll('variant');
  const variants = chosen.length === 0 ? null : chosen;
  const names = scenario.variants.map((v) => v.name);
  const unknownVariant = variants?.find((v) => !names.includes(v));
  if (unknownVariant !== undefined) return `the scenario has no variant "${unknownVariant.slice(0, 30)}"; it has ${names.join(', ')}`;
  const atText = params.get('at');
  const at = atText === null ? scenario.at : Number(atText);
  if (at !== undefined && !(Number.isInteger(at) && at >= 0)) return `at is "${(atText ?? '').slice(0, 20)}"; use a whole number`;
  const readonly = flag(params, 'readonly', true);
  if (typeof readonly === 'string') return readonly;
  const autoplay = flag(params, 'autoplay', false);
  if (typeof autoplay === 'string') return autoplay;
  const title = params.get('title');
  return {
    theme,
    views: views as ViewId[] | null,
    variants,
    at,
    readonly,
    autoplay,
    title: titleOf(title),
  };
}

/** Reads an embed's hash: its scenario and options, or what was wrong with it. */
export function decodeEmbed(hash: string): EmbedDecoded {
  const m = /^#\/embed\?(.*)$/s.exec(hash);
  if (!m) return { kind: 'error', message: 'This widget has no scenario: its address should end in #/embed?v=1&s=….' };
  const params = new URLSearchParams(m[1]);
  const decoded = decodeQuery(params);
  if (decoded.kind === 'none') return { kind: 'error', message: 'This widget has no scenario.' };
  if (decoded.kind === 'error') return { kind: 'error', message: decoded.message.replace(/^This link/, "This widget's link") };
  const options = optionsOf(params, decoded.scenario);
  if (typeof options === 'string') return { kind: 'error', message: `This widget's options are not valid: ${options}.` };
  return { kind: 'embed', scenario: decoded.scenario, options };
}

/** The embed hash for a scenario: only options that differ from the defaults are written. */
export function encodeEmbed(scenario: Scenario, options: Partial<EmbedOptions> = {}): string {
  const o = { ...DEFAULT_OPTIONS, ...options };
  const q = new URLSearchParams();
  if (o.theme !== 'auto') q.set('theme', o.theme);
  if (o.views) q.set('views', o.views.join(','));
  for (const v of o.variants ?? []) q.append('variant', v);
  if (o.at !== undefined && o.at !== scenario.at) q.set('at', String(o.at));
  if (!o.readonly) q.set('readonly', '0');
  if (o.autoplay) q.set('autoplay', '1');
  if (o.title) q.set('title', o.title);
  const rest = q.toString();
  return `#/embed?${scenarioQuery(scenario)}${rest ? `&${rest}` : ''}`;
}
