// The docs say what is true of the repository: every test file they name exists, every lesson of
// the kit has its row in the lesson catalog (docs/lessons.md), and the view shortcuts they give
// are the shell's (Alt+1…9, Alt+0 for the tenth view).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIT_LESSONS } from '../src/features/lessons/catalog';
import { VIEWS } from '../src/routing';

function docs(dir = 'docs'): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return docs(p);
    return e.name.endsWith('.md') ? [{ file: p, text: readFileSync(p, 'utf8') }] : [];
  });
}
const all = [...docs(), { file: 'README.md', text: readFileSync('README.md', 'utf8') }, { file: 'ARCHITECTURE.md', text: readFileSync('ARCHITECTURE.md', 'utf8') }];

describe('the docs', () => {
  it('name only test files that exist', () => {
    const named = all.flatMap(({ file, text }) => [...text.matchAll(/`((?:src|proxy|e2e|protocol|tools|bench)\/[\w./-]+\.(?:spec|test)\.tsx?)`/g)].map((m) => ({ file, path: m[1]! })));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !existsSync(n.path))).toEqual([]);
  });

  it('have a row for every lesson of the kit in docs/lessons.md', () => {
    const catalog = readFileSync('docs/lessons.md', 'utf8');
    expect(KIT_LESSONS.map((l) => l.id).filter((id) => !catalog.includes(`| \`${id}\` |`))).toEqual([]);
  });

  it('give the view shortcuts the shell has', () => {
    // Alt+1…9 and Alt+0 reach the first ten views; a view added after them has no digit (the docs say so).
    expect(VIEWS.length).toBe(11);
    const ranges = all.flatMap(({ file, text }) => [...text.matchAll(/Alt\+1…(\d)/g)].map((m) => ({ file, last: m[1] })));
    expect(ranges.filter((r) => r.last !== '9')).toEqual([]);
  });
});
