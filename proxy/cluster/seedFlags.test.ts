import { describe, expect, it } from 'vitest';
import { parseSeedFlags } from './seedFlags';

describe('npm run cluster: the seed flags, read before the control plane starts', () => {
  it('takes a preset and its overrides', () => {
    expect(parseSeedFlags(['--seed', 'large'])).toEqual({ seed: { pods: 150_000, namespaces: 150, crds: 300 } });
    expect(parseSeedFlags(['--dir', 'x', '--seed', 'small', '--seed-pods', '50', '--seed-crds', '0'])).toEqual({ seed: { pods: 50, namespaces: 2, crds: 0 } });
    expect(parseSeedFlags(['--fresh'])).toEqual({});
  });

  it('refuses an override without --seed instead of starting an empty cluster', () => {
    const r = parseSeedFlags(['--seed-pods', '5']);
    expect('error' in r && r.error).toMatch(/--seed-pods: only with --seed PRESET \(one of large, medium, small\)/);
  });

  it.each([
    [['--seed', 'huge'], /unknown preset huge/],
    [['--seed'], /unknown preset \(none given\)/],
    [['--seed', 'small', '--seed-pods', 'abc'], /--seed-pods: not a count: abc/],
    [['--seed', 'small', '--seed-pods', '-3'], /not a count: -3/],
    [['--seed', 'small', '--seed-pods', '1e3'], /not a count: 1e3/],
    [['--seed', 'small', '--seed-pods'], /not a count: \(none given\)/],
    [['--seed', 'small', '--seed-crds', '99999999999999999999'], /not a count/],
    [['--seed', 'small', '--seed-namespaces', '0'], /200 Pods need at least one namespace/],
  ])('refuses %j with a clear error', (args, why) => {
    const r = parseSeedFlags(args);
    expect('error' in r ? r.error : '').toMatch(why);
  });

  it('accepts no namespace when there are no Pods', () => {
    expect(parseSeedFlags(['--seed', 'small', '--seed-pods', '0', '--seed-namespaces', '0'])).toEqual({ seed: { pods: 0, namespaces: 0, crds: 3 } });
  });
});
