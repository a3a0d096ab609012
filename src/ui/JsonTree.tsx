import { useState } from 'react';

// A collapsible JSON tree. Every key and value is rendered as a React text node, so object
// content (which may hold HTML or script from whoever wrote the object) is always shown as text.

function summary(v: unknown): string {
  if (Array.isArray(v)) return `[${v.length}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).length}}`;
  return '';
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="s">{JSON.stringify(value)}</span>;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return <span className="n">{String(value)}</span>;
  if (value === null) return <span className="n">null</span>;
  return <span>{String(value)}</span>;
}

function Node({ name, value, depth, openDepth }: { name: string | null; value: unknown; depth: number; openDepth: number }) {
  const composite = value !== null && typeof value === 'object';
  const [open, setOpen] = useState(depth < openDepth);
  const label = name === null ? null : <span className="k">{name}</span>;
  if (!composite) {
    return (
      <li>
        {label}
        {label && ': '}
        <Scalar value={value} />
      </li>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  return (
    <li>
      <button type="button" className="toggle" aria-expanded={open} aria-label={`${open ? 'Collapse' : 'Expand'} ${name ?? 'root'}`} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {label}
      {label && ': '}
      <span className="muted">{summary(value)}</span>
      {open && (
        <ul>
          {entries.map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function JsonTree({ value, openDepth = 2, label = 'JSON tree' }: { value: unknown; openDepth?: number; label?: string }) {
  // A group of nested lists with disclosure buttons, not an ARIA tree widget (which would need
  // treeitems and arrow keys); axe flags role="tree" around plain lists as critical.
  return (
    <div className="tree" role="group" aria-label={label}>
      <ul style={{ paddingLeft: 0 }}>
        <Node name={null} value={value} depth={0} openDepth={openDepth} />
      </ul>
    </div>
  );
}
