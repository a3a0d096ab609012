// The endpoint's TLS: client-go reads a kubeconfig user's credentials (token, client certificate)
// only for a server reached over TLS (clientcmd's DirectClientConfig.ClientConfig: "only try to
// read the auth information if we are secure"), so a plain-HTTP endpoint would get requests with
// no Authorization at all. Each endpoint makes its own certificate for 127.0.0.1 and localhost at
// start, self-signed (ECDSA P-256, valid a day past the explorer's likely lifetime), and the
// kubeconfigs it hands out trust exactly that certificate (certificate-authority-data).
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface EndpointCertificate {
  certPem: string;
  keyPem: string;
}

const toPem = (der: ArrayBuffer, label: string): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;

export async function endpointCertificate(): Promise<EndpointCertificate> {
  const crypto = webcrypto as unknown as Crypto;
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
      name: 'CN=kube-api-explorer X-ray endpoint',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 400 * 24 * 3600_000),
      keys,
      signingAlgorithm: alg,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
        ]),
      ],
    },
    crypto,
  );
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem'), keyPem: toPem(pkcs8, 'PRIVATE KEY') };
}
