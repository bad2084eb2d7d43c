// The build's check of a lesson step (a remark plugin for @mdx-js/rollup):
// only the lesson components, each with valid props; every scenario runs on
// its variants; every <Watch> event happens in its run; every <Predict> has
// an answer the engine computes. A failure stops the build with the file,
// line and column (vfile's `fail`), as a compiler error would.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import {
  answerOf,
  COMPONENTS,
  parseAt,
  parsePredict,
  parseVariants,
  parseViews,
  parseWatch,
  type LessonVariant,
  type OpenSpec,
  type WatchSpec,
} from '../src/lessons/spec';
import { buildRun, type BuildRun } from './lessonEngine';
import { GLOSSARY } from '../src/glossary/glossary';
import { momentEnd, narrationStops } from '../src/player/narration';
import { Joint } from '../src/trace/joint';
import type { ViewId } from '../src/views/ids';
import { networkAt } from '../src/views/network/state';
import { isRequest, QUERY_NODE } from '../src/views/network/rounds';
import type { TraceData } from '../src/trace/traceData';
import { HUES, WORDS } from '../src/glossary/words';

interface JsxAttribute {
  type: string;
  name?: string;
  value?: string | null | { type: string; value: string };
}

interface JsxNode {
  type: 'mdxJsxFlowElement' | 'mdxJsxTextElement';
  name: string | null;
  attributes: JsxAttribute[];
  children: unknown[];
  position?: { start: { line: number; column: number } };
}

/** A prop's value: a string as written, an expression evaluated (lessons are trusted source, read at build). */
function propsOf(node: JsxNode, fail: (m: string) => never): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const a of node.attributes) {
    if (a.type !== 'mdxJsxAttribute' || !a.name) fail(`<${node.name}>: spread props are not allowed in a lesson`);
    const v = a.value;
    if (v === null || v === undefined) props[a.name] = true;
    else if (typeof v === 'string') props[a.name] = v;
    else {
      try {
        props[a.name] = new Function(`"use strict"; return (${v.value});`)() as unknown;
      } catch (e) {
        fail(`<${node.name} ${a.name}={…}> is not a plain value: ${(e as Error).message}`);
      }
    }
  }
  return props;
}

function scriptOf(dir: string, src: unknown, what: string, fail: (m: string) => never): string {
  if (typeof src !== 'string' || !src.endsWith('.sql') || src.includes('/')) fail(`${what} needs src="a-script.sql" from the lesson's folder`);
  const path = join(dir, src);
  if (!existsSync(path)) fail(`${what}: there is no ${src} in ${relative(process.cwd(), dir)}`);
  return readFileSync(path, 'utf8');
}

function settingsOf(v: LessonVariant): string {
  return v.settings
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join('\n');
}

/** Runs a scenario's variant; a script error fails the build at the script's line. */
function runOrFail(script: string, src: string, v: LessonVariant, fail: (m: string) => never) {
  let run;
  try {
    run = buildRun(script, v.profile, settingsOf(v));
  } catch (e) {
    fail(`${src} on ${v.name}: ${(e as Error).message}`);
  }
  if (run.report.error) {
    const e = run.report.error;
    fail(`${src}:${e.line}:${e.column} does not run on ${v.name} (${v.profile}): ${e.message}`);
  }
  return run;
}

/** A narrated moment, where the page's player stops for a <Watch>: each column's cursor there. */
export interface NarratedMoment {
  /** Its scenario's place in the step (0-based), and the scenario's script. */
  scenario: number;
  src: string;
  /** The narration's place among its scenario's <Watch>es (0-based). */
  index: number;
  watch: WatchSpec;
  /** The views the scenario shows (null: each engine's own). */
  views: readonly ViewId[] | null;
  columns: { variant: LessonVariant; trace: TraceData; cursor: number }[];
}

/** A scenario as the build ran it: its columns' runs and its narrated moments. */
export interface ScenarioRuns {
  /** Its place in the step (0-based). */
  scenario: number;
  src: string;
  /** The views the scenario shows (null: each engine's own). */
  views: readonly ViewId[] | null;
  runs: readonly { v: LessonVariant; run: BuildRun }[];
  moments: NarratedMoment[];
}

/**
 * Where the page stops for each narration, computed as the page computes it
 * (one joint player over the columns, narrations counted from the statement
 * the scenario opens at).
 */
function momentsOf(scenario: number, src: string, runs: readonly { v: LessonVariant; run: BuildRun }[], watches: readonly WatchSpec[], views: readonly ViewId[] | null, at: OpenSpec): NarratedMoment[] {
  const joint = new Joint(runs.map((r) => r.run.trace));
  const statement = at.kind === 'line' ? (runs[0]?.run.report.statements.findIndex((s) => s.line === at.line) ?? -1) : -1;
  const origin = statement >= 0 ? (joint.positionOfStatement(statement) ?? 0) : 0;
  const tracks = runs.map((r) => ({ column: { name: r.v.name }, trace: r.run.trace }));
  const narrations = watches.map((w) => ({ ...w, words: null }));
  return narrationStops(joint, tracks, narrations, origin).map((stop) => {
    const cursors = joint.cursors(stop.position);
    const index = narrations.indexOf(stop.narration as (typeof narrations)[number]);
    return {
      scenario,
      src,
      index,
      watch: watches[index] ?? stop.narration,
      views,
      columns: runs.map((r, k) => ({ variant: r.v, trace: r.run.trace, cursor: cursors[k] ?? 0 })),
    };
  });
}

function checkScenario(
  node: JsxNode,
  dir: string,
  fail: (m: string) => never,
  failAt: (m: string, n: JsxNode) => never,
  onScenario: { scenario: number; hear: (s: ScenarioRuns) => void } | undefined,
) {
  const props = propsOf(node, fail);
  const script = scriptOf(dir, props.src, '<Scenario>', fail);
  const variants = parseVariants(props.variants);
  if (typeof variants === 'string') fail(`<Scenario>: ${variants}`);
  const views = parseViews(props.views);
  if (typeof views === 'string') fail(`<Scenario>: ${views}`);
  const at = parseAt(props.at);
  if (typeof at === 'string') fail(`<Scenario>: ${at}`);
  if (props.full !== undefined) scriptOf(dir, props.full, '<Scenario full>', fail);
  const runs = variants.map((v) => ({ v, run: runOrFail(script, String(props.src), v, fail) }));
  if (at.kind === 'line' && !runs.some((r) => r.run.report.statements.some((s) => s.line === at.line))) {
    fail(`<Scenario at="${at.line}">: no statement of ${String(props.src)} starts on line ${at.line}`);
  }
  const watches: WatchSpec[] = [];
  for (const child of node.children as JsxNode[]) {
    if (child.type !== 'mdxJsxFlowElement' && child.type !== 'mdxJsxTextElement') continue;
    if (child.name !== 'Watch') failAt(`<Scenario> holds only <Watch> narrations, not <${child.name}>`, child);
    const watch = parseWatch(propsOf(child, (m) => failAt(m, child)), variants);
    if (typeof watch === 'string') failAt(watch, child);
    watches.push(watch);
    // Counted from the statement the scenario opens at (as the page counts them), or from the start.
    const count = runs
      .filter((r) => watch.variant === undefined || r.v.name === watch.variant)
      .map((r) => {
        const from = at.kind === 'line' ? (r.run.starts.find((s) => s.line === at.line)?.event ?? 0) : 0;
        return r.run.kinds.slice(from).filter((k) => k === watch.at).length;
      });
    const most = Math.max(0, ...count);
    if (most < watch.nth) {
      failAt(
        `<Watch at="${watch.at}"${watch.nth > 1 ? ` nth={${watch.nth}}` : ''}>: ${String(props.src)} on ${watch.variant ?? variants.map((v) => v.name).join(' or ')} records ${most === 0 ? 'no' : `only ${most}`} ${watch.at} event(s)${at.kind === 'line' ? ` from line ${at.line} on` : ''}`,
        child,
      );
    }
    if (views !== null && !views.includes('network')) continue;
    for (const r of runs) {
      if (watch.variant !== undefined && r.v.name !== watch.variant) continue;
      const from = at.kind === 'line' ? (r.run.starts.find((s) => s.line === at.line)?.event ?? 0) : 0;
      const problem = roundProblem(r.run.trace, nthEvent(r.run.kinds, from, watch.at, watch.nth));
      if (problem) failAt(`<Watch at="${watch.at}"${watch.nth > 1 ? ` nth={${watch.nth}}` : ''}> on ${r.v.name}: ${problem}`, child);
    }
  }
  if (onScenario) {
    const { scenario, hear } = onScenario;
    const src = String(props.src);
    hear({ scenario, src, views, runs, moments: momentsOf(scenario, src, runs, watches, views, at) });
  }
}

/** The index of the nth event of `kind` from `from`, or -1. */
function nthEvent(kinds: readonly string[], from: number, kind: string, nth: number): number {
  let seen = 0;
  for (let i = from; i < kinds.length; i++) if (kinds[i] === kind && ++seen === nth) return i;
  return -1;
}

/**
 * Whether the network view, where the player stops for a narration of event
 * `i`, shows the round of RPCs the event belongs to, whole: a narration about
 * "the batch's requests, all in flight" must not stand beside one arrow.
 */
function roundProblem(trace: TraceData, i: number): string | null {
  if (i < 0 || !['read_request', 'rpc', 'join_loop'].includes(trace.kind(i))) return null;
  const at = networkAt(trace, momentEnd(trace, i));
  if (at.statement === null) return null;
  const shown = at.messages.slice(0, at.shown);
  const e = trace.event(i);
  const tablet = e.type === 'read_request' || e.type === 'rpc' ? e.tablet : undefined;
  if (tablet !== undefined && !shown.some((m) => isRequest(m) && m.tablet === tablet)) {
    return `the network view has not drawn the request to tablet ${tablet} at the narrated moment`;
  }
  const requests = shown.filter(isRequest).length;
  const answers = shown.filter((m) => m.to === QUERY_NODE).length;
  if (requests !== answers) return `the network view shows ${requests} request(s) but ${answers} answer(s) at the narrated moment: its round is drawn in part`;
  return null;
}

function checkPredict(node: JsxNode, dir: string, fail: (m: string) => never) {
  const spec = parsePredict(propsOf(node, fail));
  if (typeof spec === 'string') fail(spec);
  const script = scriptOf(dir, spec.src, '<Predict>', fail);
  const reports = Object.fromEntries((spec.among ?? [spec.variant]).map((v) => [v.name, runOrFail(script, spec.src, v, fail).report]));
  const answer = answerOf(spec, reports);
  if (answer.kind === 'error') fail(`<Predict>: ${answer.message}`);
}

/**
 * The remark plugin: every step file under lessons/ is checked. `onScenario`
 * hears each scenario's runs and narrated moments (the view snapshots and the
 * vocabulary test read them).
 */
export function remarkLessonCheck(options: { onScenario?: (s: ScenarioRuns) => void } = {}) {
  return (tree: Root, file: VFile) => {
    const dir = dirname(file.path);
    let scenarios = 0;
    visit(tree, (n) => {
      const node = n as unknown as Omit<JsxNode, 'type'> & { type: string };
      const failAt = (message: string, at: unknown): never => file.fail(message, at as never);
      const fail = (message: string): never => failAt(message, node);
      if (node.type === 'mdxjsEsm') fail('a lesson step has no import or export: its components are given to it');
      if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') fail('a lesson step has no {expressions} in its text');
      if (node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') return;
      const name = node.name ?? '';
      if (!(COMPONENTS as readonly string[]).includes(name)) {
        fail(`<${name || '>'}${name ? '>' : ''} is not a lesson component; use Markdown, or one of ${COMPONENTS.map((c) => `<${c}>`).join(', ')}`);
      }
      if (name === 'Scenario') {
        const hear = options.onScenario;
        checkScenario(node as JsxNode, dir, fail, failAt, hear && { scenario: scenarios, hear });
        scenarios += 1;
      }
      if (name === 'Predict') checkPredict(node as JsxNode, dir, fail);
      if (name === 'Watch' && !isInsideScenario(tree, node)) fail('<Watch> belongs inside a <Scenario>');
      if (name === 'Term') {
        const t = propsOf(node as JsxNode, fail).t;
        if (typeof t !== 'string' || !(t in WORDS || t in GLOSSARY)) {
          fail(`<Term t="${String(t)}">: not in the glossary (web/src/glossary/words.ts or glossary.ts)`);
        }
      }
      if (name === 'Hue') {
        const of = propsOf(node as JsxNode, fail).of;
        if (typeof of !== 'string' || !(of in HUES)) fail(`<Hue of="${String(of)}">: the hues are ${Object.keys(HUES).join(', ')}`);
      }
    });
  };
}

function isInsideScenario(tree: Root, target: unknown): boolean {
  let inside = false;
  visit(tree, (n) => {
    const node = n as unknown as JsxNode;
    if (node.name === 'Scenario' && (node.children as unknown[]).some((c) => c === target)) inside = true;
  });
  return inside;
}
