// Connection timeouts shared by the kubeconfig reader (tunnels through a proxy-url) and the
// upstream opener: their own module, so that neither imports the other for a number.

/** Time allowed for TCP+TLS to the API server; watches themselves have no timeout. */
export const CONNECT_TIMEOUT_MS = 15_000;
