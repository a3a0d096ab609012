import type { HttpWarning } from '../codecs/warnings';

/** The server's Warning headers (deprecations, unknown fields, admission warnings), shown prominently. */
export function WarningList({ warnings, title = 'Warnings from the server' }: { warnings: HttpWarning[]; title?: string }) {
  if (!warnings.length) return null;
  return (
    <section className="warning-list" aria-label={title}>
      <strong className="warn">
        ⚠ {title} ({warnings.length})
      </strong>
      <ul>
        {warnings.map((w, i) => (
          <li key={i}>
            {w.text} <span className="muted small">({w.code}{w.agent !== '-' ? ` ${w.agent}` : ''})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
