// The Clients view's public face for other features: a link to a run or an exchange of another client.
import type { Route } from '../../routing';

export function clientsLink(extra: { client?: string; run?: string; x?: string } = {}): Partial<Route> & { extra: Record<string, string> } {
  return { view: 'clients', extra: Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)) as Record<string, string> };
}
