import { describe, expect, it } from 'vitest';
import { cellText, formatBytes, humanAge } from './format';

describe('humanAge', () => {
  it('reads like kubectl: seconds, minutes and seconds, hours, days', () => {
    expect(humanAge(42_000)).toBe('42s');
    expect(humanAge(5 * 60_000 + 3_000)).toBe('5m3s');
    expect(humanAge(45 * 60_000)).toBe('45m');
    expect(humanAge(3 * 3600_000 + 20 * 60_000)).toBe('3h20m');
    expect(humanAge(30 * 3600_000)).toBe('30h');
    expect(humanAge(3 * 86400_000 + 2 * 3600_000)).toBe('3d2h');
    expect(humanAge(400 * 86400_000)).toBe('400d');
  });
});

describe('cellText', () => {
  it('shows a timestamp cell as an age, with the exact time on hover', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    const c = cellText('2026-01-01T00:00:00Z', 'date', now);
    expect(c.text).toBe('10m');
    expect(c.title).toContain('2026-01-01T00:00:00Z');
  });

  it('keeps an age the server already rendered, and says so on hover', () => {
    const c = cellText('5m', 'date', Date.now());
    expect(c.text).toBe('5m');
    expect(c.title).toMatch(/server rendered/);
  });

  it('prints numbers, booleans and objects as text and null as empty', () => {
    expect(cellText(3, 'integer', 0).text).toBe('3');
    expect(cellText(false, 'boolean', 0).text).toBe('false');
    expect(cellText({ a: 1 }, 'string', 0).text).toBe('{"a":1}');
    expect(cellText(null, 'string', 0).text).toBe('');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
  });
});
