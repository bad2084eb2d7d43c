// <Term t="heap fetch">heap fetches</Term>: the app's glossary in a lesson.
import type { ReactNode } from 'react';
import { Term } from '../../glossary/Term';

export function LessonTerm({ t, children }: { t: string; children?: ReactNode }) {
  return <Term name={t}>{children ?? t}</Term>;
}
