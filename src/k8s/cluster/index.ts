export { contextsQuery, K8S_QUERY_PREFIX, namespacesQuery } from './queries';
