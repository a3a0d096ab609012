// Warning response headers (RFC 7234 §5.5). The API server sends one `Warning: 299 - "text"` header
// per problem (deprecated API versions, unknown fields under fieldValidation=Warn, admission
// warnings). fetch() joins repeated headers with ", ", so a parser has to walk quoted strings rather
// than split on commas: a warning's text may itself contain commas and escaped quotes.

export interface HttpWarning {
  code: number;
  agent: string;
  text: string;
  date?: string;
}

/** Parses one or more warning-values (as joined by fetch) into warnings; skips what does not parse. */
export function parseWarningHeader(value: string | null | undefined): HttpWarning[] {
  const out: HttpWarning[] = [];
  if (!value) return out;
  let i = 0;
  const n = value.length;
  const skipSpaces = () => {
    while (i < n && (value[i] === ' ' || value[i] === '\t')) i++;
  };
  const token = () => {
    const start = i;
    while (i < n && value[i] !== ' ' && value[i] !== '\t' && value[i] !== ',') i++;
    return value.slice(start, i);
  };
  const quoted = (): string | null => {
    if (value[i] !== '"') return null;
    i++;
    let s = '';
    while (i < n && value[i] !== '"') {
      // quoted-pair: a backslash escapes the next character (the server escapes quotes this way).
      if (value[i] === '\\' && i + 1 < n) i++;
      s += value[i];
      i++;
    }
    if (i >= n) return null;
    i++;
    return s;
  };
  const skipToNext = () => {
    // Recover from a malformed value: move past the next comma outside quotes.
    let inQuote = false;
    while (i < n) {
      const c = value[i];
      if (c === '\\' && inQuote) i++;
      else if (c === '"') inQuote = !inQuote;
      else if (c === ',' && !inQuote) break;
      i++;
    }
    i++;
  };
  while (i < n) {
    skipSpaces();
    if (value[i] === ',') {
      i++;
      continue;
    }
    const code = token();
    skipSpaces();
    const agent = token();
    skipSpaces();
    const text = quoted();
    if (!/^\d{3}$/.test(code) || !agent || text === null) {
      skipToNext();
      continue;
    }
    skipSpaces();
    let date: string | undefined;
    if (value[i] === '"') date = quoted() ?? undefined;
    out.push(date === undefined ? { code: Number(code), agent, text } : { code: Number(code), agent, text, date });
    skipSpaces();
    if (i < n && value[i] !== ',') skipToNext();
  }
  return out;
}
