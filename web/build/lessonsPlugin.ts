// The lessons in the build: each step compiled by MDX with the lesson check
// (lessonCheck.ts), and each lesson.json checked against its folder. Any
// problem stops `vite build` (and `npm test`) naming the file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import mdx from '@mdx-js/rollup';
import type { Plugin } from 'vite';
import { remarkLessonCheck } from './lessonCheck';
import { remarkNumbers } from './remarkNumbers';
import { parseLessonMeta } from '../src/lessons/meta';

/** Every lesson folder's lesson.json, checked: a list of problems, empty when all is well. */
export function lessonProblems(root: string): string[] {
  const problems: string[] = [];
  if (!existsSync(root)) return [`no lessons folder at ${root}`];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = join(root, folder.name);
    const file = join('lessons', folder.name, 'lesson.json');
    if (!/^\d\d-[a-z0-9-]+$/.test(folder.name)) problems.push(`lessons/${folder.name}: a lesson folder is named NN-slug`);
    if (!existsSync(join(dir, 'lesson.json'))) {
      problems.push(`${file}: missing`);
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, 'lesson.json'), 'utf8'));
    } catch (e) {
      problems.push(`${file}: not JSON: ${(e as Error).message}`);
      continue;
    }
    const meta = parseLessonMeta(raw);
    if (typeof meta === 'string') {
      problems.push(`${file}: ${meta}`);
      continue;
    }
    const steps = meta.steps.map((s) => s.file);
    for (const s of steps) if (!existsSync(join(dir, s))) problems.push(`${file}: step ${s} is not in the folder`);
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.mdx') && !steps.includes(f)) problems.push(`lessons/${folder.name}/${f}: not a step of lesson.json`);
    }
  }
  return problems;
}

export function lessonsPlugin(root: string): Plugin[] {
  return [
    {
      name: 'indexlab-lessons-meta',
      buildStart() {
        const problems = lessonProblems(root);
        if (problems.length > 0) this.error(`lessons: ${problems.join('\n')}`);
      },
    },
    // @mdx-js/rollup is a Rollup plugin; Vite runs it as one (its types differ in optional fields only).
    { enforce: 'pre', ...(mdx({ remarkPlugins: [remarkLessonCheck, remarkNumbers], include: ['**/lessons/**/*.mdx'] }) as unknown as Plugin) },
  ];
}
