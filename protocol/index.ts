// Wire types shared by the proxy (proxy/) and the page (src/): the only module both may import.
// Types and constants only: no I/O, no imports from either side.
export * from './mux';
export * from './contexts';
export * from './status';
