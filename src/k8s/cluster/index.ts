export { type ContextInfo, contextsQuery, namespacesQuery } from './queries';
