// A lesson's lesson.json: title, summary, minutes, what it teaches, its steps.
// Checked by the build (web/build/lessonsPlugin.ts) and read by the page.

export interface LessonStep {
  file: string;
  title: string;
}

export interface LessonMeta {
  title: string;
  summary: string;
  minutes: number;
  learn: string[];
  source: string | null;
  steps: LessonStep[];
}

const isText = (x: unknown): x is string => typeof x === 'string' && x.trim() !== '';

/** The metadata, or the first thing wrong with it. */
export function parseLessonMeta(raw: unknown): LessonMeta | string {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const o = raw as Record<string, unknown>;
  if (!isText(o.title)) return 'no title';
  if (!isText(o.summary)) return 'no summary';
  if (typeof o.minutes !== 'number' || o.minutes <= 0) return 'minutes is not a positive number';
  if (!Array.isArray(o.learn) || !o.learn.every(isText)) return 'learn is not a list of sentences';
  if (o.source !== undefined && !isText(o.source)) return 'source is not text';
  if (!Array.isArray(o.steps) || o.steps.length === 0) return 'steps is not a list of { file, title }';
  const steps: LessonStep[] = [];
  for (const [i, s] of (o.steps as unknown[]).entries()) {
    const st = s as Record<string, unknown>;
    if (typeof st !== 'object' || st === null || !isText(st.file) || !st.file.endsWith('.mdx') || !isText(st.title)) {
      return `step ${i + 1} is not { file: "….mdx", title }`;
    }
    steps.push({ file: st.file, title: st.title });
  }
  return {
    title: o.title,
    summary: o.summary,
    minutes: o.minutes,
    learn: o.learn as string[],
    source: (o.source as string | undefined) ?? null,
    steps,
  };
}
