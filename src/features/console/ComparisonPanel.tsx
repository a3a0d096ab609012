// Two exchanges side by side, with what differs between them (status, headers, body, timing).
import { compareExchanges } from './compare';
import type { Exchange } from '../../k8s/client';
import { ExchangeView } from './ExchangeView';

export function ComparisonPanel({ older, newer }: { older: Exchange; newer: Exchange }) {
  return (
    <section aria-label="Comparison">
      <h3>Side by side</h3>
      <table className="grid small" aria-label="Differences">
        <thead>
          <tr>
            <th>differs</th>
            <th>older</th>
            <th>newer</th>
          </tr>
        </thead>
        <tbody>
          {compareExchanges(older, newer).map((d) => (
            <tr key={d.what}>
              <th scope="row">
                <code>{d.what}</code>
              </th>
              <td>
                <code>{d.left}</code>
              </td>
              <td>
                <code>{d.right}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="split-even">
        {[older, newer].map((x) => (
          <div key={x.id} className="panel">
            <ExchangeView exchange={x} compact />
          </div>
        ))}
      </div>
    </section>
  );
}
