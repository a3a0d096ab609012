// Redaction of a recording before its file is written: what a session shows on the screen is
// often fine to show a colleague, but a file travels further (bug reports, chat, a class's shared
// folder). Replaced by default:
// - the values of a Secret's `data` and `stringData` (keys stay: which keys exist is often the
//   question), and its last-applied-configuration annotation, which repeats them (kubectl apply);
// - string fields that hold credentials wherever they appear: `token` (TokenReview spec,
//   TokenRequest and ExecCredential status), `*Token`, `password`, `clientKeyData`,
//   `client-key-data` (a kubeconfig in a ConfigMap);
// - the Authorization, Proxy-Authorization, Cookie and Set-Cookie headers, and any header whose
//   name says token;
// - bearer tokens and JSON Web Tokens in any text (service account tokens are JWTs);
// - whatever matches one of the user's own patterns (regular expressions).
// A binary body (protobuf, CBOR) cannot be walked here: it is dropped when it may hold a Secret
// (the path names secrets, or the bytes spell "Secret") or matches a pattern.
import { fromYaml } from '../../codecs/yaml';
import type { HeaderList } from '../client/exchange';

export const REDACTED = 'REDACTED';

export interface RedactionOptions {
  /** false: the user opted out for this recording (the file says so). */
  enabled: boolean;
  /** Regular expressions (JavaScript syntax, matched case-sensitively) whose matches are replaced. */
  patterns: string[];
}

export interface Redaction {
  /** Index of the entry in log.entries. */
  entry: number;
  /** Where in the entry: `request.headers`, `response.content`, `_frames[3]`, ... */
  where: string;
  /** Which rule: secret-data, credential-field, header, bearer, jwt, binary-body, pattern:<source>. */
  rule: string;
  /** The field's path in the body, when it is JSON (`.items[0].data.password`). */
  field?: string;
}

export interface RedactionSite {
  entry: number;
  where: string;
}

const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie)$|token/i;
const CREDENTIAL_FIELD = /^(token|password|clientKeyData|client-key-data|[a-zA-Z-]*[Tt]oken)$/;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

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
    let out = text;
    if (BEARER.test(out)) {
      out = out.replace(BEARER, `$1${REDACTED}`);
      this.note(site, 'bearer', field);
    }
    BEARER.lastIndex = 0;
    if (JWT.test(out)) {
      out = out.replace(JWT, REDACTED);
      this.note(site, 'jwt', field);
    }
    JWT.lastIndex = 0;
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
   */
  body(text: string, site: RedactionSite): string {
    if (!this.enabled || text === '') return text;
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return this.text(text, site);
      }
      const before = this.report.length;
      const walked = this.value(parsed, site, '', false);
      return this.report.length === before ? text : JSON.stringify(walked);
    }
    // A YAML body (an apply, a create typed as YAML): parsed to find a Secret's data.
    if (/^\s*(kind|apiVersion|metadata|data|stringData)\s*:/m.test(text)) {
      let parsed: unknown;
      try {
        parsed = fromYaml(text);
      } catch {
        parsed = undefined;
      }
      if (parsed && typeof parsed === 'object') {
        const before = this.report.length;
        const walked = this.value(parsed, site, '', false);
        if (this.report.length !== before) return JSON.stringify(walked);
      } else if (/^\s*kind\s*:\s*Secret\b/m.test(text)) {
        this.note(site, 'secret-data');
        return `${REDACTED} (a Secret in YAML that could not be read)`;
      }
    }
    return this.text(text, site);
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

  private value(v: unknown, site: RedactionSite, path: string, inSecretList: boolean): unknown {
    if (typeof v === 'string') return this.text(v, site, path);
    if (Array.isArray(v)) return v.map((x, i) => this.value(x, site, `${path}[${i}]`, inSecretList));
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    const isSecret = o.kind === 'Secret' || (inSecretList && o.kind === undefined && typeof o.metadata === 'object');
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
