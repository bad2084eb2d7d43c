// Lecture pace, as the workbench's and the compact player share it: on in
// presenter mode unless the reader says otherwise. Its stops are found only
// while it is on (finding a backward seek decodes every iterator step of a
// long scan).
import { useMemo, useState } from 'react';
import { usePresenting } from '../presenter/presenter';
import type { Joint } from '../trace/joint';
import type { TraceData } from '../trace/traceData';
import { lectureStops, type LectureStop } from './lecture';

export function useLecture(
  joint: Joint,
  tracks: readonly { trace: TraceData }[],
): { lecture: boolean; setLecture(on: boolean): void; stops: LectureStop[] } {
  const presenting = usePresenting();
  const [choice, setLecture] = useState<boolean | null>(null);
  const lecture = choice ?? presenting;
  const stops = useMemo(() => (lecture ? lectureStops(joint, tracks.map((t) => t.trace)) : []), [lecture, joint, tracks]);
  return { lecture, setLecture, stops };
}
