// What a SelfSubjectRulesReview's rules allow on one resource, matched the way RBAC matches them
// (k8s.io/kubernetes pkg/apis/rbac/v1 helpers VerbMatches, APIGroupMatches, ResourceMatches):
// `*` matches every verb, group or resource; `resource/subresource` entries name a subresource
// only; rules with resourceNames allow those objects only, never a list or a collection-wide
// watch. The review is advisory ("may be incomplete", incomplete: true when an authorizer could
// not list its rules), so views show it as a hint and the server's answer stays the last word.
import type { ResourceRule } from '../overview';

export interface RuleVerbs {
  /** Verbs allowed on any object of the resource. */
  verbs: string[];
  /** Verbs allowed only on named objects (rules with resourceNames). */
  namedOnly: string[];
}

function matches(list: string[] | undefined, value: string): boolean {
  return !!list && (list.includes('*') || list.includes(value));
}

/** Verbs the rules allow on `group`/`resource` (no subresource), in the order they first appear. */
export function verbsFromRules(rules: ResourceRule[], group: string, resource: string): RuleVerbs {
  const verbs = new Set<string>();
  const named = new Set<string>();
  for (const r of rules) {
    if (!matches(r.apiGroups ?? [''], group) || !matches(r.resources, resource)) continue;
    const into = r.resourceNames?.length ? named : verbs;
    for (const v of r.verbs) into.add(v);
  }
  const all = verbs.has('*');
  return {
    verbs: all ? ['*'] : [...verbs],
    namedOnly: all ? [] : [...named].filter((v) => !verbs.has(v)),
  };
}

/** True when the rules allow `verb` on every object of the resource. */
export function rulesAllow(rules: ResourceRule[], group: string, resource: string, verb: string): boolean {
  const v = verbsFromRules(rules, group, resource).verbs;
  return v.includes('*') || v.includes(verb);
}

/** A short mark for a resource list: "read", "read, write", "get only (named)", or "" (nothing). */
export function accessMark(v: RuleVerbs): string {
  const has = (x: string) => v.verbs.includes('*') || v.verbs.includes(x);
  const read = has('get') || has('list') || has('watch');
  const write = has('create') || has('update') || has('patch') || has('delete') || has('deletecollection');
  if (read && write) return 'read, write';
  if (read) return has('list') ? 'read' : 'get only';
  if (write) return 'write only';
  if (v.namedOnly.length) return 'named objects only';
  return '';
}
