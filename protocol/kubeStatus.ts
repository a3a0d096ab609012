// metav1.Status: what kube-apiserver (and, in its shape, our proxy) answers a failed request with
// (apimachinery's pkg/apis/meta/v1 types.go). One declaration for both sides: the page reads it
// (k8s/client's KubeApiError, ui's StatusView), the proxy writes it (proxy/src/errors.ts).

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface Status {
  kind: 'Status';
  apiVersion: string;
  metadata?: { resourceVersion?: string; continue?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: StatusCause[];
    retryAfterSeconds?: number;
  };
}
