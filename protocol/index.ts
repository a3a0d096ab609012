// Wire types shared by the proxy (proxy/) and the page (src/): the only module both may import.
// Types, constants and the pure rules of the wire both sides must read alike (protocol/watch.ts:
// is this request a watch?): no I/O, no imports from either side.
export * from './mux';
export * from './contexts';
export * from './status';
export * from './watch';
export * from './userAgent';
