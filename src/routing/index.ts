// The routing layer: every view's state lives in the URL's query string. Features read and build
// routes through this module; it sits below them (ARCHITECTURE.md) and knows no feature.
export { contextNamespaceFor, followInAppLinks, hrefFor, navigate, parseRoute, type Route, serializeRoute, useRoute, type View, VIEWS } from './route';
