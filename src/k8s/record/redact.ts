// Redaction of a recording before its file is written: what a session shows on the screen is
// often fine to show a colleague, but a file travels further (bug reports, chat, a class's shared
// folder). Replaced by default, by what a value is as much as by where it sits:
// - the values of a Secret's `data` and `stringData` (keys stay: which keys exist is often the
//   question), and its last-applied-configuration annotation, which repeats them (kubectl apply);
//   a Secret is known by its `kind`, and every body sent to or read from a Secret's path (core
//   v1 `secrets`) counts as one whatever it says: a merge or strategic merge patch carries no
//   kind, a JSON Patch's `value`s are replaced, and a body that cannot be read there is dropped;
// - string fields that hold credentials wherever they appear: `token` (TokenReview spec,
//   TokenRequest and ExecCredential status), `*Token`, `password`, `apiKey`, `*Secret`,
//   `clientKeyData`, `client-key-data`;
// - credential-shaped text inside any string (a kubeconfig or a config file kept in a ConfigMap,
//   a log line): PEM private key blocks, `key: value` / `"key": "value"` / `key=value` for those
//   same keys, bearer and basic credentials, JSON Web Tokens (service account tokens), and the
//   password of a URL's userinfo;
// - the Authorization, Proxy-Authorization, Cookie and Set-Cookie headers, and any header whose
//   name says token;
// - whatever matches one of the user's own patterns (regular expressions).
// A binary body (protobuf, CBOR) cannot be walked here: it is dropped when it may hold a Secret
// (the path names secrets, or the bytes spell "Secret") or matches a pattern.
import { fromYaml } from '../../codecs/yaml';
import type { HeaderList } from '../client/exchange';
import type { Redaction, RedactionOptions } from '../../../protocol/recording';
import { BEARER, CREDENTIAL_KEY, JWT, maskCredentialText, REDACTED } from '../../../protocol/credentialText';

export { REDACTED };

export type { Redaction, RedactionOptions } from '../../../protocol/recording';

export interface RedactionSite {
  entry: number;
  where: string;
}

const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie)$|token/i;
const CREDENTIAL_FIELD = new RegExp(`^${CREDENTIAL_KEY}$`);
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** A Secret's path: core v1 secrets, a collection, an object or a watch (`/api/v1/watch/...`). */
const SECRET_PATH = /^\/api\/v1\/(?:watch\/)?(?:namespaces\/[^/?]+\/)?secrets(?:[/?]|$)/;

/** Whether a request path is a Secret's (its bodies, both ways, hold Secret data whatever their kind). */
export function isSecretPath(path: string): boolean {
  return SECRET_PATH.test(path);
}

/** A user pattern that is not a valid regular expression is matched as plain text. */
export function compilePatterns(patterns: string[]): { source: string; re: RegExp }[] {
  return patterns
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((source) => {
      try {
        return { source, re: new RegExp(source, 'g') };
      } catch {
        return { source, re: new RegExp(source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g') };
      }
    });
}

export class Redactor {
  readonly report: Redaction[] = [];
  private readonly patterns: { source: string; re: RegExp }[];

  constructor(readonly options: RedactionOptions) {
    this.patterns = compilePatterns(options.patterns);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  private note(site: RedactionSite, rule: string, field?: string): void {
    if (this.report.length < 5000) this.report.push({ ...site, rule, ...(field !== undefined ? { field } : {}) });
  }

  headers(headers: HeaderList, site: RedactionSite): HeaderList {
    if (!this.enabled) return headers;
    return headers.map(([k, v]) => {
      if (SECRET_HEADERS.test(k)) {
        this.note(site, 'header', k);
        return [k, REDACTED];
      }
      return [k, this.text(v, site)];
    });
  }

  /** Text rules only (bearer tokens, JWTs, the user's patterns): for paths, header values, plain bodies. */
  text(text: string, site: RedactionSite, field?: string): string {
    if (!this.enabled || text === '') return text;
    let out = maskCredentialText(text, (rule) => this.note(site, rule, field));
    for (const p of this.patterns) {
      p.re.lastIndex = 0;
      if (p.re.test(out)) {
        p.re.lastIndex = 0;
        out = out.replace(p.re, REDACTED);
        this.note(site, `pattern:${p.source}`, field);
      }
      p.re.lastIndex = 0;
    }
    return out;
  }

  /**
   * A body as text: JSON is walked (and written back compactly when something was replaced), YAML
   * is read and written back as JSON when something was replaced, anything else gets the text rules.
   * `path` is the request's: on a Secret's path the body is a Secret's whatever it says (a patch
   * names no kind), and one that cannot be read is dropped whole.
   */
  body(text: string, site: RedactionSite, path = ''): string {
    if (!this.enabled || text === '') return text;
    const secret = isSecretPath(path);
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // A watch's whole body (the console's Export HAR keeps it in one piece): one JSON event a
        // line (NDJSON); read as text, a credential in a string's escaped JSON would go unseen.
        const lines = text.split('\n');
        if (lines.length > 1 && lines.every((l) => l.trim() === '' || /^\s*[{[]/.test(l))) return lines.map((l) => (l.trim() === '' ? l : this.body(l, site, path))).join('\n');
        return secret ? this.unreadable(site) : this.text(text, site);
      }
      const before = this.report.length;
      const walked = this.value(parsed, site, '', false, secret);
      return this.report.length === before ? text : JSON.stringify(walked);
    }
    // A YAML body (an apply, a create typed as YAML): parsed to find a Secret's data.
    if (secret || /^\s*(kind|apiVersion|metadata|data|stringData)\s*:/m.test(text)) {
      let parsed: unknown;
      try {
        parsed = fromYaml(text);
      } catch {
        parsed = undefined;
      }
      if (parsed && typeof parsed === 'object') {
        const before = this.report.length;
        const walked = this.value(parsed, site, '', false, secret);
        if (this.report.length !== before) return JSON.stringify(walked);
      } else if (secret || /^\s*kind\s*:\s*Secret\b/m.test(text)) {
        return this.unreadable(site);
      }
    }
    return this.text(text, site);
  }

  private unreadable(site: RedactionSite): string {
    this.note(site, 'secret-data');
    return `${REDACTED} (a Secret's body that could not be read)`;
  }

  /** A binary body: kept unless it may hold a Secret or matches a pattern. */
  binary(bytes: Uint8Array, path: string, site: RedactionSite): Uint8Array | undefined {
    if (!this.enabled || bytes.length === 0) return bytes;
    const latin1 = Array.from(bytes.subarray(0, 4 * 1024 * 1024), (b) => String.fromCharCode(b)).join('');
    if (/\/secrets(\/|\?|$)/.test(path) || latin1.includes('Secret') || BEARER.test(latin1) || JWT.test(latin1) || this.patterns.some((p) => new RegExp(p.re.source).test(latin1))) {
      BEARER.lastIndex = 0;
      JWT.lastIndex = 0;
      this.note(site, 'binary-body');
      return undefined;
    }
    return bytes;
  }

  /**
   * `secretDoc`: the top of a body on a Secret's path. An object there without a kind of its own
   * (a merge patch) is the Secret; a list there is a JSON Patch, whose values are replaced.
   */
  private value(v: unknown, site: RedactionSite, path: string, inSecretList: boolean, secretDoc = false): unknown {
    if (typeof v === 'string') return this.text(v, site, path);
    if (Array.isArray(v)) {
      if (secretDoc) return v.map((op, i) => this.jsonPatchOp(op, site, `${path}[${i}]`));
      return v.map((x, i) => this.value(x, site, `${path}[${i}]`, inSecretList));
    }
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    const isSecret = o.kind === 'Secret' || (secretDoc && (o.kind === undefined || o.kind === null)) || (inSecretList && o.kind === undefined && typeof o.metadata === 'object');
    const secretList = o.kind === 'SecretList';
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) {
      const p = `${path}.${k}`;
      if (isSecret && (k === 'data' || k === 'stringData') && x && typeof x === 'object') {
        out[k] = Object.fromEntries(Object.keys(x).map((key) => [key, REDACTED]));
        if (Object.keys(x).length > 0) this.note(site, 'secret-data', p);
      } else if (isSecret && k === 'metadata' && x && typeof x === 'object') {
        out[k] = this.secretMetadata(x as Record<string, unknown>, site, p);
      } else if (typeof x === 'string' && CREDENTIAL_FIELD.test(k) && x !== '') {
        out[k] = REDACTED;
        this.note(site, 'credential-field', p);
      } else {
        out[k] = this.value(x, site, p, secretList && k === 'items');
      }
    }
    return out;
  }

  /** One operation of a JSON Patch sent to a Secret: its `value` may be any part of the Secret. */
  private jsonPatchOp(op: unknown, site: RedactionSite, path: string): unknown {
    if (!op || typeof op !== 'object' || Array.isArray(op) || !('value' in op)) return this.value(op, site, path, false);
    const { value: _value, ...rest } = op as Record<string, unknown>;
    this.note(site, 'secret-data', `${path}.value`);
    return { ...(this.value(rest, site, path, false) as object), value: REDACTED };
  }

  private secretMetadata(m: Record<string, unknown>, site: RedactionSite, path: string): unknown {
    const annotations = m.annotations as Record<string, unknown> | undefined;
    const walked = this.value(m, site, path, false) as Record<string, unknown>;
    if (annotations && typeof annotations[LAST_APPLIED] === 'string') {
      walked.annotations = { ...(walked.annotations as object), [LAST_APPLIED]: REDACTED };
      this.note(site, 'secret-data', `${path}.annotations`);
    }
    return walked;
  }
}
