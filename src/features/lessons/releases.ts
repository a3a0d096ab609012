// Which Kubernetes releases a lesson holds on: a lesson whose steps need a newer server says so
// (`since` on KitLesson), and the runners skip it on an older one instead of reporting it wrong.
import type { KitLesson } from './kit';

/** "v1.33.13" or "1.37" → [1, 33]; undefined when it is not a version. */
export function minorOf(version: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** True when the server (its gitVersion) is at least the lesson's `since` release, or the lesson names none. */
export function lessonApplies(lesson: Pick<KitLesson, 'since'>, serverVersion: string): boolean {
  if (!lesson.since) return true;
  const want = minorOf(lesson.since);
  const have = minorOf(serverVersion);
  if (!want || !have) return true;
  return have[0] > want[0] || (have[0] === want[0] && have[1] >= want[1]);
}
