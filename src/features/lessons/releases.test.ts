import { describe, expect, it } from 'vitest';
import { lessonApplies, minorOf } from './releases';

describe('lessonApplies', () => {
  it('compares the minor release of the server with the lesson\'s since', () => {
    expect(minorOf('v1.33.13')).toEqual([1, 33]);
    expect(lessonApplies({ since: '1.35' }, 'v1.33.13')).toBe(false);
    expect(lessonApplies({ since: '1.35' }, 'v1.37.1')).toBe(true);
    expect(lessonApplies({ since: '1.37' }, 'v1.37.0-rc.1')).toBe(true);
    expect(lessonApplies({}, 'v1.33.13')).toBe(true);
    expect(lessonApplies({ since: '1.35' }, 'not a version')).toBe(true);
  });
});
