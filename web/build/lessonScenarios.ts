// Every lesson step's scenarios as the build runs them, for tests that look
// at what a student sees (the view snapshots, the vocabulary walk).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '@mdx-js/mdx';
import { remarkLessonCheck, type ScenarioRuns } from './lessonCheck';

/** Each step file under `lessonsDir`: its lesson, its file name, its path. */
export function lessonSteps(lessonsDir: string): { lesson: string; file: string; path: string }[] {
  return readdirSync(lessonsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(lessonsDir, d.name))
        .filter((f) => f.endsWith('.mdx'))
        .sort()
        .map((file) => ({ lesson: d.name, file, path: join(lessonsDir, d.name, file) })),
    );
}

/** A step's scenarios, checked and run as `vite build` runs them. */
export async function scenariosOf(path: string): Promise<ScenarioRuns[]> {
  const scenarios: ScenarioRuns[] = [];
  await compile({ value: readFileSync(path, 'utf8'), path }, { remarkPlugins: [[remarkLessonCheck, { onScenario: (s: ScenarioRuns) => scenarios.push(s) }]] });
  return scenarios;
}
