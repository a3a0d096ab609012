// A small picker over discovery: resources that support `list`, filtered by resource name, short
// name, kind or group. Choosing one puts group/version/resource into the URL.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { allResources, type ApiResource, discoveryQuery } from '../../k8s/discovery';
import { ErrorBox } from '../../ui/ErrorBox';

export function gvrId(r: { group?: string; version?: string; resource?: string }): string {
  return `${r.group ?? ''}/${r.version ?? ''}/${r.resource ?? ''}`;
}

function describe(r: ApiResource): string {
  const gv = r.group ? `${r.group}/${r.version}` : r.version;
  const short = r.shortNames.length ? ` (${r.shortNames.join(', ')})` : '';
  return `${r.resource}${short} — ${r.kind}, ${gv}${r.namespaced ? '' : ', cluster-scoped'}`;
}

export function ResourcePicker({ context, value, onPick }: { context: string; value: { group?: string; version?: string; resource?: string }; onPick: (r: ApiResource) => void }) {
  const discovery = useQuery(discoveryQuery(context));
  const [filter, setFilter] = useState('');
  const listable = useMemo(() => (discovery.data ? allResources(discovery.data).filter((r) => r.verbs.includes('list')) : []), [discovery.data]);
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    if (!f) return listable;
    return listable.filter((r) => r.resource.includes(f) || r.kind.toLowerCase().includes(f) || r.shortNames.includes(f) || r.group.includes(f) || r.singular === f);
  }, [listable, filter]);
  const current = gvrId(value);

  if (discovery.error) return <ErrorBox error={discovery.error} title="Discovery failed, so there is no resource list to pick from" />;
  return (
    <div className="lists-picker">
      <input
        type="search"
        data-main-action
        aria-label="Filter resources"
        placeholder="Filter: name, short name, kind, group"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && shown[0]) onPick(shown[0]);
        }}
      />
      <select
        aria-label="Resource"
        value={shown.some((r) => gvrId(r) === current) ? current : ''}
        onChange={(e) => {
          const r = listable.find((x) => gvrId(x) === e.target.value);
          if (r) onPick(r);
        }}
      >
        <option value="" disabled>
          {discovery.isLoading ? 'Loading discovery…' : `${shown.length} listable resources`}
        </option>
        {shown.map((r) => (
          <option key={gvrId(r)} value={gvrId(r)}>
            {describe(r)}
          </option>
        ))}
      </select>
    </div>
  );
}
