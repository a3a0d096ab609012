import { useSyncExternalStore } from 'react';
import { activeReplay, type ReplaySession, subscribeReplay } from '../../k8s/record';

const noSession = () => () => {};

/** The replay in progress (if any) and its epoch, which moves when the clock goes back. */
export function useReplay(): { session: ReplaySession | undefined; epoch: number } {
  const session = useSyncExternalStore(subscribeReplay, activeReplay);
  const epoch = useSyncExternalStore(
    session ? (cb) => session.subscribe(cb) : noSession,
    () => session?.snapshot().epoch ?? 0,
  );
  return { session, epoch };
}
