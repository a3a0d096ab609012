// Credential-shaped text, wherever it sits: in a string of a recorded body (k8s/record/redact.ts)
// and in what an exec plugin wrote on stderr, which the explorer server quotes in its log, its 502s
// and /proxy/status (proxy/src/auth/exec.ts). Found by what the text is, not by where: PEM private
// key blocks; `key: value`, `"key": "value"` and `key=value` for credential keys (a kubeconfig, a
// config file or an env file kept as text, a query string, a log line); bearer and basic
// credentials; JSON Web Tokens (service account tokens); the password of a URL's userinfo.

export const REDACTED = 'REDACTED';

/** Names of fields (and of `key: value` pairs in text) whose value is a credential. */
export const CREDENTIAL_KEY = String.raw`(?:[A-Za-z_-]*(?:[Tt]oken|TOKEN|[Pp]assword|PASSWORD|[Pp]asswd|[Ss]ecret|SECRET)|api[-_]?[Kk]ey|API_?KEY|client-key-data|clientKeyData)`;
export const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
export const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const BASIC = /(Basic\s+)[A-Za-z0-9+/]{6,}={0,2}/g;
const PEM_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g;
// Each starts only where a key can (after a quote, space or punctuation), so a long run of
// letters costs one scan, not one per position.
const QUOTED_PAIR = new RegExp(String.raw`((?<![A-Za-z0-9_-])["']?${CREDENTIAL_KEY}["']?\s*:\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*')`, 'g');
const YAML_PAIR = new RegExp(String.raw`((?:^|[\s{,\[-])${CREDENTIAL_KEY}\s*:[ \t]+)(?!["'|>]|REDACTED|true\b|false\b|null\b)([^\s,}\]#][^\r\n,}\]]*)`, 'gm');
const ENV_PAIR = new RegExp(String.raw`((?:^|[\s?&;,"'-])${CREDENTIAL_KEY}=)(?!REDACTED)([^\s&;,"']+)`, 'gm');
/** A YAML block scalar (`client-key-data: |`) under a credential key: its indented lines. */
const YAML_BLOCK = new RegExp(String.raw`((?:^|\n)([ \t]*)-?[ \t]*${CREDENTIAL_KEY}\s*:[ \t]*[|>][-+]?[ \t]*)((?:\r?\n\2[ \t]+[^\r\n]*)+)`, 'g');
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s@]+@/gi;

/** The rules in the order they apply (a block before the pairs inside it), each with its name in a redaction report. */
const RULES: { re: RegExp; name: string; by: string }[] = [
  { re: PEM_KEY, name: 'private-key', by: REDACTED },
  { re: YAML_BLOCK, name: 'credential-text', by: `$1\n$2  ${REDACTED}` },
  { re: QUOTED_PAIR, name: 'credential-text', by: `$1"${REDACTED}"` },
  { re: YAML_PAIR, name: 'credential-text', by: `$1${REDACTED}` },
  { re: ENV_PAIR, name: 'credential-text', by: `$1${REDACTED}` },
  { re: URL_PASSWORD, name: 'url-password', by: `$1${REDACTED}@` },
  { re: BEARER, name: 'bearer', by: `$1${REDACTED}` },
  { re: BASIC, name: 'basic', by: `$1${REDACTED}` },
  { re: JWT, name: 'jwt', by: REDACTED },
];

/** `text` with every credential-shaped part replaced by REDACTED; `found` hears each rule that matched. */
export function maskCredentialText(text: string, found: (rule: string) => void = () => undefined): string {
  let out = text;
  for (const { re, name, by } of RULES) {
    re.lastIndex = 0;
    if (re.test(out)) {
      re.lastIndex = 0;
      out = out.replace(re, by);
      found(name);
    }
    re.lastIndex = 0;
  }
  return out;
}
