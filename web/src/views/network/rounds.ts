// The messages of one statement as the network view draws them: grouped into
// rounds (RPCs sent together to the tablet servers and answered before the
// next round starts: one read request, which YugabyteDB counts once whatever
// tablets it touches, or one flush of buffered writes, a write request per
// tablet), and the statement's
// virtual time split into what the round trips, the tablet servers and the
// query node each took. Pure functions of the trace: see network/index.tsx.
import type { TraceEvent } from '../../trace/traceData';

export type Message = Extract<TraceEvent, { type: 'rpc' }>;
export type JoinLoop = Extract<TraceEvent, { type: 'join_loop' }>;

/** The node that runs the query (YugabyteDB's YSQL layer, PostgreSQL's code). */
export const QUERY_NODE = 'ysql';

export interface Round {
  /** 0-based, in the statement. */
  index: number;
  write: boolean;
  start_us: number;
  /** When its last message arrived. */
  end_us: number;
  /** Requests from the query node: one RPC per tablet the round touches. */
  rpcs: number;
  rows: number;
  bytes: number;
  messages: Message[];
}

/** A request the query node sends (the start of an RPC). */
export function isRequest(m: Message): boolean {
  return m.from === QUERY_NODE && (m.kind === 'read' || m.kind === 'write');
}

/**
 * Rounds in send order. Every request of a round leaves the query node at the
 * round's start, so a request sent at another time starts the next round;
 * responses and replication belong to the round of the requests before them.
 */
export function roundsOf(messages: readonly Message[]): Round[] {
  const rounds: Round[] = [];
  let current: Round | undefined;
  for (const m of messages) {
    if (isRequest(m) && (!current || m.send_us !== current.start_us)) {
      current = {
        index: rounds.length,
        write: m.kind === 'write',
        start_us: m.send_us,
        end_us: m.arrive_us,
        rpcs: 0,
        rows: 0,
        bytes: 0,
        messages: [],
      };
      rounds.push(current);
    }
    if (!current) continue;
    current.messages.push(m);
    current.end_us = Math.max(current.end_us, m.arrive_us);
    current.bytes += m.bytes;
    if (isRequest(m)) current.rpcs += 1;
    if (m.kind === 'read response') current.rows += m.rows;
  }
  return rounds;
}

/** Where a statement's virtual time went, in microseconds. */
export interface TimeSplit {
  /** Messages in flight on each round's slowest path. */
  network_us: number;
  /** Tablet servers working (reading, writing, waiting for nothing else). */
  tserver_us: number;
  /** The query node between rounds: planning rows, the join's comparisons. */
  query_us: number;
  total_us: number;
}

/**
 * A round lasts until its last response arrives; along that RPC's path the
 * time is either on the wire (the request, the response, and a write's
 * replication to the follower whose acknowledgement completed the majority)
 * or in the tablet server. What no round covers, the query node spent.
 */
export function timeSplit(rounds: readonly Round[], total_us: number): TimeSplit {
  let network = 0;
  let inRounds = 0;
  for (const r of rounds) {
    const duration = r.end_us - r.start_us;
    inRounds += duration;
    const last = r.messages.reduce<Message | undefined>(
      (a, m) => (m.to === QUERY_NODE && (!a || m.arrive_us > a.arrive_us) ? m : a),
      undefined,
    );
    if (!last) continue;
    const request = r.messages.find((m) => isRequest(m) && m.to === last.from && m.tablet === last.tablet);
    let wire = last.arrive_us - last.send_us + (request ? request.arrive_us - request.send_us : 0);
    // Replication before that response: the acknowledgement that arrived last
    // at the leader before it answered, and the append it answers.
    const acks = r.messages.filter(
      (m) => m.kind === 'replicate ack' && m.to === last.from && m.tablet === last.tablet && m.arrive_us <= last.send_us,
    );
    const ack = acks.reduce<Message | undefined>((a, m) => (!a || m.arrive_us > a.arrive_us ? m : a), undefined);
    if (ack) {
      const append = r.messages.find((m) => m.kind === 'replicate' && m.to === ack.from && m.tablet === ack.tablet);
      wire += ack.arrive_us - ack.send_us + (append ? append.arrive_us - append.send_us : 0);
    }
    wire = Math.min(wire, duration);
    network += wire;
  }
  const tserver = inRounds - network;
  return {
    network_us: network,
    tserver_us: tserver,
    query_us: Math.max(0, total_us - inRounds),
    total_us,
  };
}

/** Rounds per pixel column where they start (the zoomed-out picture: one tick a column). */
export function roundTicks(rounds: readonly Round[], x: (us: number) => number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const r of rounds) {
    const px = Math.round(x(r.start_us));
    ticks.set(px, (ticks.get(px) ?? 0) + 1);
  }
  return ticks;
}

interface RoundIndex {
  rounds: Round[];
  /** Each message's round. */
  roundOf: number[];
}

const indexes = new WeakMap<readonly Message[], RoundIndex>();

/**
 * The rounds of a statement's first `shown` messages: the statement's rounds
 * are found once, then each call copies the complete ones and regroups only
 * the round under way (the player asks once a frame).
 */
export function roundsUpTo(all: readonly Message[], shown: number): Round[] {
  let index = indexes.get(all);
  if (!index) {
    const rounds = roundsOf(all);
    const roundOf: number[] = [];
    for (const r of rounds) for (let k = 0; k < r.messages.length; k++) roundOf.push(r.index);
    // Messages before the first request belong to no round.
    const orphans = all.length - roundOf.length;
    index = { rounds, roundOf: [...new Array<number>(orphans).fill(-1), ...roundOf] };
    indexes.set(all, index);
  }
  if (shown <= 0) return [];
  if (shown >= all.length) return index.rounds;
  const last = index.roundOf[shown - 1] ?? -1;
  if (last < 0) return [];
  const under = index.rounds[last];
  if (!under) return [];
  const before = index.roundOf.indexOf(last);
  const partial = roundsOf(all.slice(before, shown))[0];
  return partial ? [...index.rounds.slice(0, last), { ...partial, index: last }] : index.rounds.slice(0, last);
}
