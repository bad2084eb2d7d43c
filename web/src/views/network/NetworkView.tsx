// A sequence diagram of one statement's messages over virtual time: the query
// node and each tablet server as lanes, every message an arrow from its send
// to its arrival, each round (one read or write request: RPCs sent together)
// shaded. Too many rounds to tell apart at this zoom: they are drawn as a
// strip of ticks, one per round, and wheel zoom brings the arrows back. Below,
// where the statement's time went. D3 for the scales, React for the DOM.
import { memo, useContext, useMemo, useState, type FormEvent } from 'react';
import { scaleLinear } from 'd3-scale';
import { RerunContext } from '../../player/rerun';
import { count, kb } from '../../format/numbers';
import { addMark, chunkPaths } from '../shared/chunks';
import { useAxisZoom } from '../shared/useAxisZoom';
import type { StatementTimes } from './state';
import { QUERY_NODE, roundTicks, roundsUpTo, timeSplit, type JoinLoop, type Message, type Round } from './rounds';

const LABEL = 88;
/** The time axis, then the band of a join's loops. */
const TICKS = 22;
const LOOPS = 18;
const AXIS = TICKS + LOOPS;
const ROW = 36;
const RIGHT = 10;
/** Fewer pixels than this per round and the rounds are drawn as ticks. */
const PX_PER_ROUND = 10;

export const NETWORK_PRESETS = ['local', 'multi-az', 'multi-region'] as const;

/** ms with sensible precision (virtual time). */
export function ms(us: number): string {
  const v = us / 1000;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`;
}

/**
 * About how wide a character of a tick label is: 0.75 rem at 0.62 em a
 * character (digits and "ms" in the page's sans-serif), so presenter mode's
 * larger root font (18 px) keeps its last label inside the view too.
 */
function tickCharPx(): number {
  const root = typeof document === 'undefined' ? 16 : parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  return root * 0.75 * 0.62;
}

/**
 * The time axis's ticks (µs from the statement's start) and their labels:
 * as many as fit (one per 90 px), each label once, with as many decimals as
 * the step between ticks needs ("0.25 ms", not "0.00 ms" five times).
 */
export function axisTicks(scale: { ticks(n: number): number[] }, plot: number): { v: number; label: string }[] {
  const ticks = scale.ticks(Math.max(2, Math.floor(plot / 90)));
  const step = ticks.length > 1 ? (ticks[1] ?? 0) - (ticks[0] ?? 0) : 1000;
  const decimals = Math.min(3, Math.max(0, Math.ceil(-Math.log10(step / 1000))));
  const out: { v: number; label: string }[] = [];
  for (const v of ticks) {
    const label = `${(v / 1000).toFixed(decimals)} ms`;
    if (out.at(-1)?.label !== label) out.push({ v, label });
  }
  return out;
}

/** The lanes: the query node, then the tablet servers by number. */
export function lanesOf(messages: readonly Message[]): string[] {
  const servers = new Set<string>();
  for (const m of messages) for (const n of [m.from, m.to]) if (n !== QUERY_NODE) servers.add(n);
  const num = (n: string) => Number(n.replace(/\D+/g, '')) || 0;
  return [QUERY_NODE, ...[...servers].sort((a, b) => num(a) - num(b))];
}

function kindClass(m: Message): string {
  return `msg msg-${m.kind.replace(/\s+/g, '-')}`;
}

/** A message in words; its times count from the statement's start (`start`), as the axis does. */
function messageTitle(m: Message, start: number): string {
  const what =
    m.kind === 'read' || m.kind === 'write'
      ? `${m.kind} request for tablet ${m.tablet}: ${count(m.ops)} operation(s)`
      : m.kind === 'read response'
        ? `answer for tablet ${m.tablet}: ${count(m.rows)} row(s)`
        : `${m.kind} for tablet ${m.tablet}`;
  return `${m.from} → ${m.to}: ${what}, ${kb(m.bytes)}; sent at ${ms(m.send_us - start)}, arrived at ${ms(m.arrive_us - start)} into the statement`;
}

/** A round in words: what its hover and its focus say. */
export function roundText(r: Round): string {
  const kind = r.write ? 'write' : 'read';
  return `Round ${r.index + 1}: one ${kind} request, ${count(r.rpcs)} RPC(s) sent together, ${count(r.rows)} row(s) and ${kb(r.bytes)} on the wire; ${ms(r.end_us - r.start_us)}`;
}

function RoundMarks({
  rounds,
  start,
  x,
  lanes,
  laneOf,
}: {
  rounds: readonly Round[];
  /** The statement's start (µs): times in words count from it. */
  start: number;
  x: (us: number) => number;
  lanes: number;
  laneOf: (node: string) => number;
}) {
  const y = (lane: number) => AXIS + lane * ROW + ROW / 2;
  return (
    <g>
      {rounds.map((r) => (
        <g key={r.index} className="round">
          {/* Focusable, with its facts as its name: the keyboard reaches
              what the mouse's hover shows. */}
          <rect
            x={x(r.start_us)}
            y={AXIS + 2}
            width={Math.max(1, x(r.end_us) - x(r.start_us))}
            height={lanes * ROW - 4}
            className={r.index % 2 ? 'round-band odd' : 'round-band'}
            tabIndex={0}
            role="img"
            aria-label={roundText(r)}
          >
            <title>{roundText(r)}</title>
          </rect>
          {r.messages.map((m, i) => {
            const from = laneOf(m.from);
            const to = laneOf(m.to);
            return (
              <line
                key={i}
                x1={x(m.send_us)}
                y1={y(from)}
                x2={x(m.arrive_us)}
                y2={y(to)}
                className={kindClass(m)}
                markerEnd="url(#arrow)"
              >
                <title>{messageTitle(m, start)}</title>
              </line>
            );
          })}
        </g>
      ))}
    </g>
  );
}

function RoundTicks({ rounds, x, lanes }: { rounds: readonly Round[]; x: (us: number) => number; lanes: number }) {
  // One tick per round where the query node sent it (rounds within a pixel
  // share a tick), and the servers' lanes shaded while rounds go on.
  const ticks = roundTicks(rounds, x);
  const first = rounds[0];
  const last = rounds.at(-1);
  return (
    <g className="round-ticks">
      {first && last && (
        <rect
          x={x(first.start_us)}
          y={AXIS + ROW}
          width={Math.max(1, x(last.end_us) - x(first.start_us))}
          height={(lanes - 1) * ROW}
          className="round-span"
        />
      )}
      {/* Paths per shade (a column with more rounds is darker), in chunks:
          a few elements to paint, not one per column, while the player runs. */}
      {[1, 2, 3].map((shade) => {
        const chunks = new Map<number, string[]>();
        for (const [px, n] of ticks) {
          if (Math.min(3, n) === shade) addMark(chunks, px, `M${px},${AXIS + 6}v${ROW - 12}h1v${-(ROW - 12)}z`);
        }
        return chunkPaths(chunks).map(([k, d]) => (
          <path key={`${shade}-${k}`} d={d} className="round-tick" opacity={0.35 + shade * 0.2} />
        ));
      })}
    </g>
  );
}

/** A Batched Nested Loop's loops as brackets over the lanes, each with its batch of keys. */
function LoopBrackets({ loops, x, end }: { loops: readonly JoinLoop[]; x: (us: number) => number; end: number }) {
  const detailed = loops.length * PX_PER_ROUND * 2 <= x(end) - x(loops[0]?.at_us ?? end);
  const y = TICKS + 4;
  const first = loops[0];
  if (!detailed && first) {
    // Too many to bracket one by one: one bracket over them all.
    const x1 = x(first.at_us);
    const x2 = x(end);
    return (
      <g className="join-loops">
        <path d={`M${x1},${y + 8} V${y} H${x2 - 2} V${y + 8}`} className="loop-bracket" />
        <text x={x1 + 4} y={y + 11} className="loop-label">
          {loops.length === 1 ? '1 loop' : `${count(loops.length)} loops`} of {first.keys === 1 ? '1 key' : `up to ${count(first.keys)} keys`}
        </text>
      </g>
    );
  }
  return (
    <g className="join-loops">
      {loops.map((l, i) => {
        const x1 = x(l.at_us);
        const x2 = x(loops[i + 1]?.at_us ?? end);
        const keys = l.keys === 1 ? `key ${l.first_key}` : `${count(l.keys)} keys, ${l.first_key} … ${l.last_key}`;
        return (
          <g key={l.number}>
            <path d={`M${x1},${y + 8} V${y} H${Math.max(x1, x2 - 2)} V${y + 8}`} className="loop-bracket">
              <title>{`Loop ${l.number}: ${keys}`}</title>
            </path>
            {detailed && x2 - x1 > 70 && (
              <text x={x1 + 4} y={y + 11} className="loop-label">
                loop {l.number} · {l.keys === 1 ? '1 key' : `${count(l.keys)} keys`}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}

/** The note's font (0.8rem) is about this wide per character. */
const NOTE_CHAR_PX = 7.2;

/**
 * "202 rounds, back to back: zoom in…", said as fully as the plot's width
 * allows and centred on the rounds it speaks of, kept inside the plot: cut
 * at both ends by the plot's edge it said nothing.
 */
function AggregateNote({ rounds, from, to, plot }: { rounds: number; from: number; to: number; plot: number }) {
  const n = count(rounds);
  const text =
    [`${n} rounds, back to back: zoom in (wheel) to see their RPCs`, `${n} rounds: zoom in to see them`, `${n} rounds`].find(
      (t) => t.length * NOTE_CHAR_PX <= plot - 8,
    ) ?? `${n}`;
  const half = (text.length * NOTE_CHAR_PX) / 2;
  const centre = Math.min(Math.max((from + to) / 2, LABEL + half + 4), LABEL + plot - half - 4);
  return (
    <text x={centre} y={AXIS + ROW * 1.6} className="aggregate-note" textAnchor="middle">
      {text}
    </text>
  );
}

/** Where the time went, as a bar `width` wide for a time of `span`: columns sharing a scale draw it the same. */
function TimeBar({ rounds, total, width, span }: { rounds: readonly Round[]; total: number; width: number; span: number }) {
  const split = timeSplit(rounds, total);
  const parts = [
    { key: 'network', label: 'round trips', us: split.network_us },
    { key: 'tserver', label: 'tablet servers', us: split.tserver_us },
    { key: 'query', label: 'query node', us: split.query_us },
  ];
  const w = scaleLinear().domain([0, Math.max(span, total, 1)]).range([0, width]);
  let at = 0;
  return (
    <div className="time-bar" aria-label="Where the statement's time went">
      <svg width={width} height={16} aria-hidden="true">
        {parts.map((p) => {
          const x = at;
          at += w(p.us);
          return <rect key={p.key} x={x} y={0} width={w(p.us)} height={16} className={`time-${p.key}`} />;
        })}
      </svg>
      <ul className="legend">
        {parts.map((p) => (
          <li key={p.key}>
            <span className={`swatch time-${p.key}`} aria-hidden="true" /> {p.label} {ms(p.us)} (
            {total > 0 ? Math.round((100 * p.us) / total) : 0} %)
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A round trip typed in milliseconds: a positive number, or null. */
export function parseRoundTrip(text: string): string | null {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Number(t) > 0 ? t : null;
}

function NetworkControl({ statement }: { statement: number | undefined }) {
  const rerun = useContext(RerunContext);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!rerun) return null;
  const current = rerun.value('network') ?? 'local';
  const options: string[] = [...NETWORK_PRESETS];
  if (!options.includes(current)) options.push(current);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ms = parseRoundTrip(typed);
    if (ms === null) {
      setError(`"${typed}" is not a round trip: type milliseconds, such as 2 or 0.5`);
      return;
    }
    setError(null);
    rerun.set('network', ms, statement);
  };
  return (
    <form className="network-control" onSubmit={submit}>
      <label>
        Network{' '}
        <select
          value={current}
          aria-label="Network round trip"
          onChange={(e) => rerun.set('network', e.target.value, statement)}
        >
          {options.map((o) => (
            <option key={o} value={o}>
              {o === 'local' ? 'local (0.05 ms)' : o === 'multi-az' ? 'multi-az (0.8 ms)' : o === 'multi-region' ? 'multi-region (90 ms)' : `${o}${/\d$/.test(o) ? ' ms' : ''}`}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        or{' '}
        <input
          type="text"
          inputMode="decimal"
          size={5}
          value={typed}
          aria-label="Round trip in milliseconds"
          onChange={(e) => setTyped(e.target.value)}
        />{' '}
        ms
      </label>{' '}
      <button type="submit">Set</button> <span className="hint">(re-runs the script)</span>
      {error && (
        <span className="network-error" role="alert">
          {' '}
          {error}
        </span>
      )}
    </form>
  );
}

export const NetworkView = memo(function NetworkView({
  messages: all,
  shown,
  loops,
  statement,
  width,
  sharedTime,
}: {
  /** The statement's messages, of which the first `shown` have happened. */
  messages: readonly Message[];
  shown: number;
  /** A Batched Nested Loop's loops begun so far. */
  loops: readonly JoinLoop[];
  statement: StatementTimes | null;
  width: number;
  /** The longest time axis among the columns beside this one (µs), to draw on the same scale. */
  sharedTime?: number | undefined;
}) {
  const plot = width - LABEL - RIGHT;
  const { svg, t } = useAxisZoom(plot, 2000);
  const rounds = useMemo(() => roundsUpTo(all, shown), [all, shown]);
  // Lanes and time axis from the whole statement: they stay put while it plays.
  const lanes = useMemo(() => lanesOf(all), [all]);
  const laneOf = useMemo(() => {
    const index = new Map(lanes.map((l, i) => [l, i]));
    return (node: string) => index.get(node) ?? 0;
  }, [lanes]);
  const start = statement?.start_us ?? 0;
  const lastArrival = useMemo(() => all.reduce((a, m) => Math.max(a, m.arrive_us), start), [all, start]);
  const end = Math.max(statement?.final_us ?? lastArrival, lastArrival, start + 1);
  // Time from the statement's start: the axis reads 0, 0.5 ms, 1 ms…
  const span = Math.max(end - start, sharedTime ?? 0);
  const base = scaleLinear().domain([0, span]).range([0, plot]);
  const scale = t.rescaleX(base);
  const x = (us: number) => LABEL + scale(us - start);
  // A tick label's character width, read once a render (it reads the root's computed font size).
  const charPx = tickCharPx();
  const [lo, hi] = (scale.domain() as [number, number]).map((v) => v + start) as [number, number];
  const visible = rounds.filter((r) => r.end_us >= lo && r.start_us <= hi);
  const detailed = visible.length * PX_PER_ROUND <= plot;
  const height = AXIS + lanes.length * ROW + 6;
  const title = statement ? `Statement ${statement.index + 1}` : 'No statement yet';
  return (
    <figure
      className="view network-view"
      data-testid="network-view"
      aria-label={`Network: ${title}, ${count(rounds.length)} round(s) of RPCs`}
    >
      <figcaption>
        Network: {title} — {count(rounds.length)} round(s) of RPCs sent together (a read request, or a flush of writes),{' '}
        {count(rounds.reduce((a, r) => a + r.rpcs, 0))} RPC(s)
        {sharedTime !== undefined && ' · drawn to the same time scale as the other column(s)'}
        {!detailed && ' · too many to draw one by one here: wheel to zoom in'}
      </figcaption>
      <NetworkControl statement={statement?.index} />
      <svg ref={svg} width={width} height={height} className="network-svg" role="img" aria-label={`Sequence diagram of ${title}`}>
        <defs>
          <marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto">
            <path d="M0,0 L6,3 L0,6 z" className="arrow-head" />
          </marker>
          <clipPath id="network-plot">
            <rect x={LABEL} y={0} width={plot} height={height} />
          </clipPath>
        </defs>
        {axisTicks(scale, plot).map(({ v, label }) => {
          const at = LABEL + scale(v);
          // The last label keeps inside the view instead of being cut at its edge.
          const anchor = at + (label.length * charPx) / 2 > width ? 'end' : 'middle';
          return (
            <g key={v}>
              <line x1={at} x2={at} y1={TICKS - 4} y2={height - 4} className="grid" />
              <text x={at} y={TICKS - 8} className="tick" textAnchor={anchor}>
                {label}
              </text>
            </g>
          );
        })}
        {lanes.map((l, i) => (
          <g key={l}>
            <line x1={LABEL} x2={width - RIGHT} y1={AXIS + i * ROW + ROW / 2} y2={AXIS + i * ROW + ROW / 2} className="lane" />
            <text x={LABEL - 6} y={AXIS + i * ROW + ROW / 2 + 5} textAnchor="end" className="lane-label">
              {l === QUERY_NODE ? 'query node' : l}
            </text>
          </g>
        ))}
        <g clipPath="url(#network-plot)">
          {loops.length > 0 && <LoopBrackets loops={loops} x={x} end={end} />}
          {detailed ? (
            <RoundMarks rounds={visible} start={start} x={x} lanes={lanes.length} laneOf={laneOf} />
          ) : (
            <RoundTicks rounds={visible} x={x} lanes={lanes.length} />
          )}
        </g>
        {!detailed && visible.length > 0 && (
          <AggregateNote
            rounds={visible.length}
            from={x(visible[0]?.start_us ?? start)}
            to={x(visible.at(-1)?.end_us ?? end)}
            plot={plot}
          />
        )}
      </svg>
      {statement && (
        <TimeBar
          rounds={rounds}
          total={(statement.end_us ?? rounds.at(-1)?.end_us ?? start) - start}
          width={Math.min(plot, 420)}
          span={span}
        />
      )}
    </figure>
  );
});
