// KYAML's renderer does work in proportion to its input: a long string (a 1.4 MiB value in a
// ConfigMap, say) once took minutes, because each character looked at the growing text's end.
// The old renderer does not finish these within the test's time; the new one does, and the
// text reads back to the same value.
import { describe, expect, it } from 'vitest';
import { toKyaml } from './kyaml';
import { fromYaml } from './yaml';

const MiB = 1024 * 1024;

describe('toKyaml on long strings', () => {
  it('renders a 1.4 MiB single-line string, which reads back the same', () => {
    const value = { data: { blob: 'x7"\\é'.repeat(Math.ceil((1.4 * MiB) / 5)) } };
    const text = toKyaml(value);
    expect(fromYaml(text)).toEqual(value);
  });

  it('renders a 1.4 MiB multi-line string folded line by line, which reads back the same', () => {
    const line = `${'  leading spaces and a tab\there '.repeat(2)}\n`;
    const value = { data: { script: line.repeat(Math.ceil((1.4 * MiB) / line.length)) } };
    const text = toKyaml(value);
    expect(text.split('\n').length).toBeGreaterThan(value.data.script.split('\n').length);
    expect(fromYaml(text)).toEqual(value);
  });
});
