// Which lesson and step a component is in (its scripts are that folder's).
import { createContext, useContext } from 'react';

export const LessonContext = createContext<{ slug: string; step: number }>({ slug: '', step: 1 });

export const useLesson = () => useContext(LessonContext);
