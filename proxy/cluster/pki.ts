import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

/** The certificates and keys of one local control plane, as PEM file paths. */
export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  saKey: string;
  saPub: string;
  users: Record<UserName, { cert: string; key: string }>;
}

/**
 * Client-certificate users. kube-apiserver takes the user name from the subject CN and groups
 * from O; `system:masters` is bound to cluster-admin by the bootstrap RBAC policy.
 */
export const USERS = {
  admin: { cn: 'explorer-admin', groups: ['system:masters'] },
  viewer: { cn: 'explorer-viewer', groups: [] as string[] },
  // The controller manager's own identity: bootstrap RBAC binds this user name.
  'controller-manager': { cn: 'system:kube-controller-manager', groups: [] as string[] },
} as const;
export type UserName = keyof typeof USERS;

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await execFileP('openssl', args, { cwd });
  } catch (e) {
    const err = e as { code?: string; stderr?: string };
    if (err.code === 'ENOENT') throw new Error('openssl was not found: install it (Debian: apt-get install -y openssl)', { cause: e });
    throw new Error(`openssl ${args[0]} failed: ${err.stderr ?? String(e)}`, { cause: e });
  }
}

async function keyPair(dir: string, name: string): Promise<void> {
  // ECDSA P-256: fast to generate, and accepted by kube-apiserver for TLS, client certs and
  // service-account token signing (ES256).
  await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`], dir);
}

async function signed(dir: string, name: string, subject: string, ext: string): Promise<void> {
  await keyPair(dir, name);
  await openssl(['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`], dir);
  writeFileSync(join(dir, `${name}.ext`), ext);
  await openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '3650', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.crt`], dir);
}

/** Creates the PKI once; an existing complete PKI is reused so that data and kubeconfigs survive restarts. */
export async function ensurePki(dir: string): Promise<Pki> {
  mkdirSync(dir, { recursive: true });
  const pki: Pki = {
    dir,
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    saKey: join(dir, 'sa.key'),
    saPub: join(dir, 'sa.pub'),
    users: Object.fromEntries(Object.keys(USERS).map((u) => [u, { cert: join(dir, `user-${u}.crt`), key: join(dir, `user-${u}.key`) }])) as Pki['users'],
  };
  const all = [pki.caCert, pki.servingCert, pki.saPub, ...Object.values(pki.users).map((u) => u.cert)];
  if (all.every((f) => existsSync(f))) return pki;

  await keyPair(dir, 'ca');
  await openssl(['req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=kube-api-explorer-local-ca', '-days', '3650', '-sha256', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', 'ca.crt'], dir);
  await signed(dir, 'apiserver', '/CN=kube-apiserver',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:10.0.0.1\n');
  for (const [name, u] of Object.entries(USERS)) {
    const subject = `${u.groups.map((g) => `/O=${g}`).join('')}/CN=${u.cn}`;
    await signed(dir, `user-${name}`, subject, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  }
  await keyPair(dir, 'sa');
  await openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  return pki;
}

/** What an aggregated API server needs: kube-apiserver's front-proxy client certificate, and its own serving certificate. */
export interface AggregationPki {
  /** kube-apiserver's identity towards aggregated servers (--proxy-client-cert-file), CN front-proxy-client. */
  proxyClientCert: string;
  proxyClientKey: string;
  /** The sample-apiserver's serving certificate: valid for the name kube-apiserver checks (SERVICE.NAMESPACE.svc). */
  wardleCert: string;
  wardleKey: string;
}

/** The Service kube-apiserver reaches the sample-apiserver through (an ExternalName to localhost). */
export const WARDLE_SERVICE = { name: 'api', namespace: 'wardle' } as const;

/**
 * Adds the aggregation certificates to a PKI (signed by its CA), once: a PKI made before they
 * existed keeps its CA, and with it every kubeconfig and token. The front-proxy client is signed
 * by the same CA as the users, so kube-apiserver is told which name may act as the front proxy
 * (--requestheader-allowed-names=front-proxy-client): no user certificate can.
 */
export async function ensureAggregationPki(pki: Pki): Promise<AggregationPki> {
  const dir = pki.dir;
  const out: AggregationPki = {
    proxyClientCert: join(dir, 'front-proxy-client.crt'),
    proxyClientKey: join(dir, 'front-proxy-client.key'),
    wardleCert: join(dir, 'wardle-serving.crt'),
    wardleKey: join(dir, 'wardle-serving.key'),
  };
  if (!existsSync(out.proxyClientCert)) {
    await signed(dir, 'front-proxy-client', '/CN=front-proxy-client', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  }
  if (!existsSync(out.wardleCert)) {
    const { name, namespace } = WARDLE_SERVICE;
    await signed(dir, 'wardle-serving', `/CN=${name}.${namespace}.svc`, `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${name}.${namespace}.svc,DNS:localhost,IP:127.0.0.1\n`);
  }
  return out;
}

export function pem(path: string): string {
  return readFileSync(path, 'utf8');
}
