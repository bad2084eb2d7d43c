// Which lesson and step a component is in (its scripts are that folder's),
// and where a component registers what the step asks of the student.
import { createContext, useContext, useEffect } from 'react';
import type { Task } from './progress';

export interface LessonPlace {
  slug: string;
  step: number;
  /** Registers a task of the step while the component is mounted; returns its removal. */
  register(task: Task): () => void;
}

export const LessonContext = createContext<LessonPlace>({ slug: '', step: 1, register: () => () => {} });

export const useLesson = () => useContext(LessonContext);

/** Makes `task` one of the step's: the step is done when all of them are. */
export function useStepTask(task: Task | null): void {
  const { register } = useLesson();
  const kind = task?.kind;
  const key = task?.key;
  useEffect(() => {
    if (kind === undefined || key === undefined) return;
    return register({ kind, key } as Task);
  }, [register, kind, key]);
}
