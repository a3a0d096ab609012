// kube-apiserver's structured authentication configuration (`--authentication-config`,
// apiserver.config.k8s.io, KEP-3331): the JWT issuers it trusts besides its client certificates
// and ServiceAccount tokens. The file is always given, so that a test can add an issuer to a
// running server: kube-apiserver reloads the file when it changes (1.30 and later), where the
// older `--oidc-*` flags needed a restart.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One OpenID provider kube-apiserver trusts: its ID tokens authenticate users. */
export interface JwtIssuer {
  /** The issuer URL, exactly as the provider's tokens carry it in `iss` (https only). */
  url: string;
  /** Accepted `aud` values: the client ID the explorer signs in with. */
  audiences: string[];
  /** PEM of the CA that signed the provider's serving certificate (for its discovery and keys). */
  certificateAuthority: string;
  /** Prefix of user names and groups from this issuer (`oidc:` makes `oidc:alice`), so they cannot pose as built-in names. */
  prefix: string;
}

/** The file's YAML (JSON is YAML): user name from `sub`, groups from `groups`, both prefixed. */
export function authenticationConfiguration(issuers: JwtIssuer[], apiVersion = 'apiserver.config.k8s.io/v1beta1'): string {
  return JSON.stringify({
    apiVersion,
    kind: 'AuthenticationConfiguration',
    jwt: issuers.map((i) => ({
      issuer: { url: i.url, audiences: i.audiences, certificateAuthority: i.certificateAuthority },
      claimMappings: { username: { claim: 'sub', prefix: i.prefix }, groups: { claim: 'groups', prefix: i.prefix } },
    })),
  }, null, 2);
}

export const authenticationConfigPath = (dir: string) => join(dir, 'authentication-config.yaml');

export function writeAuthenticationConfig(dir: string, issuers: JwtIssuer[]): void {
  writeFileSync(authenticationConfigPath(dir), authenticationConfiguration(issuers));
}
