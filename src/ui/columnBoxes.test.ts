import { describe, expect, it } from 'vitest';
import { sameBoxes } from './columnBoxes';

describe('sameBoxes', () => {
  const boxes = [
    { left: 6.4, width: 224 },
    { left: 240, width: 96.5 },
  ];
  it('takes a re-measure that moved nothing as the same boxes (no row renders again)', () => {
    expect(sameBoxes(boxes, boxes.map((b) => ({ ...b, left: b.left + 0.001 })))).toBe(true);
    expect(sameBoxes(null, null)).toBe(true);
  });
  it('takes a moved or resized column, another column count or a first measure as a change', () => {
    expect(sameBoxes(boxes, [boxes[0]!, { left: 240, width: 120 }])).toBe(false);
    expect(sameBoxes(boxes, [{ left: 8, width: 224 }, boxes[1]!])).toBe(false);
    expect(sameBoxes(boxes, boxes.slice(0, 1))).toBe(false);
    expect(sameBoxes(null, boxes)).toBe(false);
  });
});
