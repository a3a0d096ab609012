// The local control plane's auditing: the policy kube-apiserver records requests by, and the log
// backend's flags. docs/audit.md says the same for users: what is recorded, where, for how long.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The audit policy (audit.k8s.io/v1 Policy; the first rule that matches a request decides its
 * level, staging/src/k8s.io/apiserver/pkg/audit/policy/checker.go). Every stage is kept
 * (RequestReceived, ResponseStarted for watches, ResponseComplete): the explorer shows them as they
 * arrive. Levels:
 * - Metadata for every request whose body carries a credential, so that none is ever written:
 *   Secrets (their data; a list or watch of them too), token requests (serviceaccounts/token: the
 *   TokenRequest's response holds the token), TokenReviews (their spec.token), and the ConfigMaps of
 *   kube-system (where system components and installers keep their configuration, credentials
 *   included: kubeadm's and cloud providers' auth maps, bootstrap data). ConfigMaps elsewhere are
 *   the user's data and are recorded whole, like every other object. CertificateSigningRequests
 *   hold a certificate request and the issued certificate, both public: recorded whole.
 * - Metadata for reads (get, list, watch): their response is the exchange's own body, which the
 *   explorer already shows; writing it again would let one large list rotate every other event out
 *   of the bounded log.
 * - RequestResponse for everything else (writes): the body sent, the object stored, and the
 *   admission annotations (each webhook's patch) that the panel turns into diffs.
 */
export const AUDIT_POLICY = {
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  rules: [
    {
      level: 'Metadata',
      resources: [
        { group: '', resources: ['secrets', 'serviceaccounts/token'] },
        { group: 'authentication.k8s.io', resources: ['tokenreviews'] },
      ],
    },
    { level: 'Metadata', resources: [{ group: '', resources: ['configmaps'] }], namespaces: ['kube-system'] },
    { level: 'Metadata', verbs: ['get', 'list', 'watch'] },
    { level: 'RequestResponse' },
  ],
};

/** Bound on disk: the log rotates at this many megabytes and keeps this many rotated files. */
export const AUDIT_LOG_MAX_MB = 20;
export const AUDIT_LOG_BACKUPS = 3;

/** Writes the policy into the control plane's folder; returns it and the log's path. */
export function writeAuditPolicy(dir: string): { policy: string; log: string } {
  const auditDir = join(dir, 'audit');
  mkdirSync(auditDir, { recursive: true, mode: 0o700 });
  const policy = join(dir, 'audit-policy.json');
  // JSON is YAML: kube-apiserver reads the policy file with its YAML decoder.
  writeFileSync(policy, `${JSON.stringify(AUDIT_POLICY, null, 2)}\n`);
  return { policy, log: join(auditDir, 'audit.log') };
}

/**
 * The log backend (not the webhook one): the explorer server reads a file it can follow without
 * serving an HTTPS endpoint that kube-apiserver must reach and trust, and the file stays for a
 * restarted explorer to read. `blocking` mode (the log backend's default, said here on purpose):
 * each event is written before the request goes on, so an exchange's event is on disk when its
 * answer arrives; `batch` would hold events back until a batch fills or its wait ends.
 */
export function auditFlags(o: { policy: string; log: string }): string[] {
  return [
    `--audit-policy-file=${o.policy}`,
    `--audit-log-path=${o.log}`,
    '--audit-log-format=json',
    '--audit-log-mode=blocking',
    `--audit-log-maxsize=${AUDIT_LOG_MAX_MB}`,
    `--audit-log-maxbackup=${AUDIT_LOG_BACKUPS}`,
  ];
}
