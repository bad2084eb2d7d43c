// The lessons the build found: their lesson.json (small, in the first load),
// and their steps and scripts, each loaded when a student opens it.
import type { ComponentType } from 'react';
import { parseLessonMeta, type LessonMeta } from './meta';

const METAS = import.meta.glob<unknown>('../../../lessons/*/lesson.json', { eager: true, import: 'default' });
const STEPS = import.meta.glob<{ default: ComponentType<{ components?: Record<string, unknown> }> }>('../../../lessons/*/*.mdx');
const SCRIPTS = import.meta.glob<string>('../../../lessons/*/*.sql', { query: '?raw', import: 'default' });

export interface Lesson {
  /** The folder's name: "01-range-scans". */
  slug: string;
  meta: LessonMeta;
}

const folderOf = (path: string) => path.split('/').at(-2) ?? '';

export const LESSONS: readonly Lesson[] = Object.entries(METAS)
  .flatMap(([path, raw]) => {
    const meta = parseLessonMeta(raw);
    // The build refuses a bad lesson.json (web/build/lessonsPlugin.ts); this only keeps types honest.
    return typeof meta === 'string' ? [] : [{ slug: folderOf(path), meta }];
  })
  .sort((a, b) => a.slug.localeCompare(b.slug));

export function lessonOf(slug: string): Lesson | undefined {
  return LESSONS.find((l) => l.slug === slug);
}

/** A step's MDX component, loaded on demand. */
export async function loadStep(slug: string, file: string) {
  const load = STEPS[`../../../lessons/${slug}/${file}`];
  if (!load) throw new Error(`lessons/${slug}/${file} is not in the build`);
  return (await load()).default;
}

/** A script of a lesson's folder, as text. */
export async function loadScript(slug: string, src: string): Promise<string> {
  const load = SCRIPTS[`../../../lessons/${slug}/${src}`];
  if (!load) throw new Error(`lessons/${slug}/${src} is not in the build`);
  return load();
}
