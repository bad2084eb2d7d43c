// The network view (yb): the statement under the cursor as a sequence diagram
// of its RPCs, grouped into rounds, with where its time went and the round
// trip switchable (the run is redone). See rounds.ts for the grouping.
import type { TraceEvent } from '../../trace/traceData';
import type { ViewDef, ViewProps } from '../registry';
import { NetworkView, ms } from './NetworkView';
import { roundsUpTo, timeSplit } from './rounds';
import { networkAt, timeSpan, type NetworkState } from './state';
import { count } from '../../format/numbers';

function Network({ state, width, shared }: ViewProps<NetworkState>) {
  return (
    <NetworkView
      messages={state.messages}
      shown={state.shown}
      loops={state.loops.slice(0, state.loopsShown)}
      statement={state.statement}
      width={width}
      sharedTime={shared?.time}
    />
  );
}

function describe(e: TraceEvent): string | null {
  if (e.type === 'join_loop') {
    if (e.keys === 1) {
      return `Loop ${count(e.number)} of the nested loop: the inner table is searched for the key ${e.first_key} of one outer row, in a read request of its own: one round trip for every outer row`;
    }
    const keys = `${count(e.keys)} keys (${e.first_key} … ${e.last_key})`;
    return `Loop ${count(e.number)} of the Batched Nested Loop: ${keys} of the next outer rows go to the inner table together, as one = ANY lookup, so the round trips are paid once per batch instead of once per row; the rows that come back are matched against the batch on the query node`;
  }
  if (e.type !== 'rpc') return null;
  const half = ms(e.arrive_us - e.send_us);
  switch (e.kind) {
    case 'read':
    case 'write':
      return `The query node sends a ${e.kind} request to ${e.to} for tablet ${e.tablet} (${e.ops} operation(s)); it takes ${half}, half a round trip, to arrive. Every tablet the request touches gets its RPC at the same moment: they work in parallel`;
    case 'read response':
      return `${e.from} answers with ${count(e.rows)} row(s) for tablet ${e.tablet}, ${half} on the way back; the query node goes on only when the slowest answer of the round is in`;
    case 'write response':
      return `${e.from} confirms the write to tablet ${e.tablet} (${half} back): a majority of its copies has it`;
    case 'replicate':
      return `${e.from}, tablet ${e.tablet}'s leader, sends the write to follower ${e.to} (Raft): it can answer once a majority of copies has it`;
    case 'replicate ack':
      return `${e.from} has the write for tablet ${e.tablet} and tells the leader ${e.to}`;
    default:
      return null;
  }
}

export const networkView: ViewDef<NetworkState> = {
  id: 'network',
  title: 'Network',
  profiles: ['yb'],
  readAt: networkAt,
  Component: Network,
  jumps: {
    'join loop': { kinds: ['join_loop'] },
  },
  describe,
  scales: (state) => ({ time: timeSpan(state) }),
  summary(state) {
    if (!state.statement) return ['No statement has started yet'];
    const rounds = roundsUpTo(state.messages, state.shown);
    const rpcs = rounds.reduce((a, r) => a + r.rpcs, 0);
    const total = (state.statement.end_us ?? rounds.at(-1)?.end_us ?? state.statement.start_us) - state.statement.start_us;
    const split = timeSplit(rounds, total);
    return [
      `Statement ${state.statement.index + 1}${state.statement.end_us === null ? ' (under way)' : ''}: ${count(rounds.length)} round(s) of RPCs (a read request each, or a flush of writes), ${count(rpcs)} RPC(s), ${count(state.shown)} message(s)`,
      ...(state.loops.length > 0
        ? [
            (state.loops[0]?.keys ?? 1) > 1
              ? `Batched Nested Loop: ${count(state.loopsShown)} of ${count(state.loops.length)} loop(s) begun, ${count(state.loops[0]?.keys ?? 0)} keys in the first`
              : `Nested loop: ${count(state.loopsShown)} of ${count(state.loops.length)} loop(s) begun, one key each`,
          ]
        : []),
      `Time: ${ms(split.network_us)} on round trips, ${ms(split.tserver_us)} in tablet servers, ${ms(split.query_us)} on the query node, of ${ms(total)}`,
    ];
  },
};
