// What the exchange inspector shows of a response, computed once per render: the body's kind and
// text, the parsed value, a Status or a plain-text 503 read as one, warnings, a running watch's
// events (parsed incrementally) and the body views offered. ExchangeView.tsx renders it.
import { useMemo, useRef, useState } from 'react';
import { bodyKind, parseJson, parseWarningHeader, parseYaml } from '../../codecs';
import { NdjsonFramer } from '../../codecs/ndjson';
import { isBinaryFormat } from '../../codecs/formats';
import { isStatus, type Status, statusOf } from '../../k8s/client';
import { refusalSentence } from '../../k8s/discovery';
import { Ring } from '../../k8s/watch';
import { isKubeTable } from '../../ui/KubeTable';
import { decodeText, type Exchange, headerValue } from '../../k8s/client';

export type BodyTab = 'table' | 'tree' | 'text' | 'yaml' | 'kyaml' | 'decoded' | 'hex' | 'events';

export interface WatchEventView {
  type: string;
  kind?: string;
  name?: string;
  namespace?: string;
  resourceVersion?: string;
  raw: string;
}

/**
 * Watch events parsed incrementally: each render decodes only the bytes that arrived since the
 * last one (the body of a running watch only grows), so a long watch costs O(new bytes) per chunk,
 * and the parsed events kept are a ring of the newest SHOWN_EVENTS (Text and Hex keep every byte).
 */
class WatchParser {
  private seen = 0;
  // The one line splitter for JSON watch streams (codecs/ndjson.ts), fed only the new bytes.
  private readonly framer = new NdjsonFramer();
  private readonly ring = new Ring<WatchEventView>(SHOWN_EVENTS);
  /** Events parsed in all (kept or not). */
  total = 0;
  events: WatchEventView[] = [];
  constructor(readonly id: string) {}
  feed(body: Uint8Array): WatchEventView[] {
    if (body.length < this.seen) return this.events;
    if (body.length === this.seen) return this.events;
    const frames = this.framer.push(body.subarray(this.seen));
    this.seen = body.length;
    const added: WatchEventView[] = [];
    for (const { text: line } of frames) {
      if (!line.trim()) continue;
      const p = parseJson(line);
      const ev = p.ok ? (p.value as { type?: string; object?: { kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } } }) : undefined;
      added.push({
        type: ev?.type ?? '(unparsed)',
        kind: ev?.object?.kind,
        name: ev?.object?.metadata?.name,
        namespace: ev?.object?.metadata?.namespace,
        resourceVersion: ev?.object?.metadata?.resourceVersion,
        raw: line,
      });
    }
    if (added.length) {
      for (const e of added) this.ring.push(e);
      this.total += added.length;
      this.events = this.ring.toArray();
    }
    return this.events;
  }
}

/** At most this many events are rendered (the newest); the Text and Hex views keep everything. */
export const SHOWN_EVENTS = 500;

export function useExchangeBody(exchange: Exchange) {
  const res = exchange.response;
  const body = useMemo(() => res?.body ?? new Uint8Array(), [res?.body]);
  const contentType = res ? headerValue(res.headers, 'Content-Type') : undefined;
  const kind = bodyKind(contentType, body.length);
  const isWatch = exchange.watch && res?.status === 200;
  // A running watch's body is not decoded whole on every chunk; only the parser below reads it.
  const text = useMemo(() => ((kind === 'json' || kind === 'yaml' || kind === 'text') && !(isWatch && kind === 'json') ? decodeText(body) : ''), [body, kind, isWatch]);
  const parsed = useMemo(() => (kind === 'json' && !exchange.watch ? parseJson(text) : kind === 'yaml' ? parseYaml(text) : undefined), [kind, text, exchange.watch]);
  const status: Status | undefined = parsed?.ok && isStatus(parsed.value) && parsed.value.status !== 'Success' ? parsed.value : undefined;
  // kube-apiserver answers for an aggregated API server that is down with a plain-text 503 (no
  // Status): read as one, so that it is explained, and the group version that is down named.
  const unavailable = !status && res?.status === 503 && kind === 'text' ? { status: statusOf(503, text), gv: refusalSentence(exchange.request.path, '', 503) } : undefined;
  const warnings = parseWarningHeader(res ? headerValue(res.headers, 'Warning') : undefined);
  const parser = useRef<WatchParser | null>(null);
  if (isWatch && kind === 'json' && parser.current?.id !== exchange.id) parser.current = new WatchParser(exchange.id);
  const watch = isWatch && kind === 'json' ? { events: parser.current!.feed(body), total: parser.current!.total } : undefined;

  const tabs: BodyTab[] = [];
  if (watch) tabs.push('events');
  // The server answers a Table request with plain `application/json`; the body's kind tells.
  const table = parsed?.ok && isKubeTable(parsed.value) ? parsed.value : undefined;
  if (table) tabs.push('table');
  if (kind === 'json' && parsed?.ok) tabs.push('tree');
  if (kind === 'json' || kind === 'yaml' || kind === 'text') tabs.push('text');
  if (kind === 'json' && parsed?.ok) tabs.push('yaml', 'kyaml');
  // Binary bodies get a decoded view next to Hex; a failed 4xx/5xx of these types still tries it
  // and shows why it could not decode, rather than hiding the tab.
  if (isBinaryFormat(kind) && body.length) tabs.push('decoded');
  if (body.length) tabs.push('hex');
  const [chosen, setTab] = useState<BodyTab | undefined>();
  const tab = chosen && tabs.includes(chosen) ? chosen : tabs[0];
  const fromProxy = res ? headerValue(res.headers, 'X-Explorer-Proxy-Error') !== undefined : false;
  const encoding = res ? headerValue(res.headers, 'Content-Encoding') : undefined;
  return { res, body, contentType, kind, isWatch, text, parsed, status, unavailable, warnings, watch, tabs, table, tab, setTab, fromProxy, encoding };
}
