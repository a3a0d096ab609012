// The Discovery view's list of every group, version and resource, with the access marks. It is
// rendered from deferred values (DiscoveryView) and memoized, so that with hundreds of CRDs its
// thousands of links render in slices and not again for a route change that does not touch them
// (a field of the schema browser, say).
import { memo, useEffect, useRef } from 'react';
import { hrefFor, navigate } from '../../routing';
import { accessMark, verbsFromRules } from '../../k8s/access';
import type { ApiGroup, ApiGroupVersion, ApiResource } from '../../k8s/discovery';
import type { RulesReview } from '../../k8s/overview';
import { matchesResource } from './filter';

export function gvLabel(group: string, version: string) {
  return group ? `${group}/${version}` : `core ${version}`;
}

function AccessMark({ mark }: { mark: string | undefined }) {
  if (mark === undefined) return null;
  return mark ? (
    <span className="badge ok small" title="what the SelfSubjectRulesReview says you may do with it in this namespace">
      {mark}
    </span>
  ) : (
    <span className="visually-hidden">(no access)</span>
  );
}

export interface ResourceNavProps {
  /** Only for the links: they carry the context and namespace of the route they were made in. */
  context: string;
  namespace: string | undefined;
  groups: ApiGroup[] | undefined;
  filter: string;
  mine: boolean;
  rules: RulesReview | undefined;
  selected: ApiResource | undefined;
  /** The object name in the route, kept when the selected resource is chosen again. */
  name: string | undefined;
}

/** One group version's resources: a component of its own, so that React renders the list in slices of a group each. */
const GroupVersionSection = memo(function GroupVersionSection({ g, v, filter, mine, rules, selected, name }: Omit<ResourceNavProps, 'groups'> & { g: ApiGroup; v: ApiGroupVersion }) {
  const markOf = (r: ApiResource) => (rules ? accessMark(verbsFromRules(rules.resourceRules, r.group, r.resource)) : undefined);
  // Another resource drops the object name: a name belongs to one resource (kept, it would open a
  // configmap's name as a secret in Edit, and get 404).
  const select = (r: ApiResource) => ({
    group: r.group,
    version: r.version,
    resource: r.resource,
    name: r === selected ? name : undefined,
    extra: (filter ? { filter } : {}) as Record<string, string>,
  });
  const rs = v.resources.filter((r) => matchesResource(r, filter) && (!mine || !!markOf(r)));
  if (!rs.length) return null;
  return (
    <section className="discovery-group" aria-label={gvLabel(g.name, v.version)}>
      <h4 className="row">
        <span>{gvLabel(g.name, v.version)}</span>
        {v.version === g.preferredVersion && g.versions.length > 1 && <span className="badge ok">preferred</span>}
        {v.freshness === 'Stale' && (
          <span className="badge warn" title="an aggregated API server did not answer; this list may be out of date">
            stale
          </span>
        )}
      </h4>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {rs.map((r) => {
          const isSel = selected === r;
          return (
            <li key={r.resource} className="discovery-item">
              <a
                className={`listbtn${isSel ? ' selected' : ''}`}
                aria-current={isSel ? 'true' : undefined}
                href={hrefFor(select(r), false)}
                onClick={(e) => {
                  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                  e.preventDefault();
                  navigate(select(r), { keepExtra: false });
                }}
              >
                <code>{r.resource}</code> <span className="muted small">{r.kind}</span>
              </a>
              <AccessMark mark={markOf(r)} />
            </li>
          );
        })}
      </ul>
    </section>
  );
});

export const ResourceNav = memo(function ResourceNav({ groups, ...rest }: ResourceNavProps) {
  const { rules, selected } = rest;
  // A deep link names a resource that may be far down the list: bring it into view, once.
  const navRef = useRef<HTMLElement>(null);
  const scrolledTo = useRef('');
  // Once more when the access marks arrive: their note above the list shortens it.
  const selectedKey = selected ? `${selected.group}/${selected.version}/${selected.resource}${rules ? ' marked' : ''}` : '';
  useEffect(() => {
    if (!selectedKey || scrolledTo.current === selectedKey) return;
    const link = navRef.current?.querySelector('a[aria-current="true"]');
    if (!link) return;
    scrolledTo.current = selectedKey;
    link.scrollIntoView({ block: 'nearest' });
  }, [selectedKey, groups]);

  return (
    <nav className="scroll" aria-label="API resources" ref={navRef}>
      {groups?.map((g) => g.versions.map((v) => <GroupVersionSection key={`${g.name}/${v.version}`} g={g} v={v} {...rest} />))}
    </nav>
  );
});
