import { describe, expect, it } from 'vitest';
import { Listeners } from './listeners';
import { sleep } from './sleep';

describe('Listeners', () => {
  it('tells each subscriber once per emit, with the arguments, until it unsubscribes', () => {
    const l = new Listeners<[number]>();
    const seen: string[] = [];
    const offA = l.subscribe((n) => seen.push(`a${n}`));
    l.subscribe((n) => seen.push(`b${n}`));
    l.emit(1);
    offA();
    l.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(l.size).toBe(1);
  });

  it('hands out a subscribe that works unbound, as useSyncExternalStore calls it', () => {
    const l = new Listeners();
    const { subscribe } = l;
    let calls = 0;
    subscribe(() => calls++);
    l.emit();
    expect(calls).toBe(1);
  });
});

describe('sleep', () => {
  it('resolves at once when its signal is already aborted, and when it aborts', async () => {
    await sleep(60_000, AbortSignal.abort());
    const ac = new AbortController();
    const waiting = sleep(60_000, ac.signal);
    ac.abort();
    await waiting;
  });
});
