// A result column's heading: the variant's name and the engine under it.
import type { Profile } from './report';

const TITLES: Record<Profile, { name: string; parts: string }> = {
  pg: { name: 'PostgreSQL', parts: 'B+tree, heap, buffer pool' },
  yb: { name: 'YugabyteDB', parts: 'LSM, DocDB, tablets' },
};

/** A column's heading: the variant's name and the engine it runs on. */
export function ColumnTitle({ name, profile }: { name: string; profile: Profile }) {
  return (
    <h2>
      {name === profile ? TITLES[profile].name : name}
      <span className="column-engine">
        {name === profile ? ` (${TITLES[profile].parts})` : ` — ${TITLES[profile].name} (${TITLES[profile].parts})`}
      </span>
    </h2>
  );
}
