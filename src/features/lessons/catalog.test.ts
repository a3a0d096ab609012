// The catalog holds together: every lesson the Status explanations point to exists, every lesson
// of the kit is on the "start here" path, ids are unique, and every step can be told apart.
import { describe, expect, it } from 'vitest';
import { STATUS_RULES } from '../../ui/statusExplain';
import { KIT_LESSONS } from './catalog';
import { LESSONS, START_HERE } from './LessonsView';

describe('the lesson catalog', () => {
  it('has every lesson a Status explanation links to', () => {
    const ids = new Set(LESSONS.map((l) => l.id));
    const linked = STATUS_RULES.map((r) => r.explain({ kind: 'Status', code: 0 } as never).lesson).filter((l): l is string => Boolean(l));
    expect(linked.filter((l) => !ids.has(l))).toEqual([]);
  });

  it('puts every kit lesson on the start-here path once, and every step id is unique within its lesson', () => {
    expect(new Set(START_HERE).size).toBe(START_HERE.length);
    expect(KIT_LESSONS.map((l) => l.id).filter((id) => !START_HERE.includes(id))).toEqual([]);
    expect(LESSONS.length).toBe(START_HERE.length);
    for (const l of KIT_LESSONS) expect(new Set(l.steps.map((s) => s.id)).size, l.id).toBe(l.steps.length);
  });

  it('says what kube-apiserver does with a generated name that is taken: it retries (KEP-4420), as background', () => {
    // kube-apiserver's generic registry (store.go, createWithGenerateNameRetry) tries up to
    // maxNameGenerationCreateAttempts = 8 generated names before answering 409 AlreadyExists.
    const text = KIT_LESSONS.find((l) => l.id === 'generate-name')!.paragraphs.join(' ');
    expect(text).not.toMatch(/does not retry|once and/);
    expect(text).toMatch(/up to eight attempts/);
    expect(text).toMatch(/Background/);
  });
});
