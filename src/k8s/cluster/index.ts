export { contextsQuery, namespacesQuery } from './queries';
