// The worker side: parses documents handed over as bytes and answers questions about them. Each
// answer is kept with its document (a `?hash=` URL never changes content), so a view that asks
// again (the editor opened twice, a field path revisited) costs a message, not a walk.
import { answer, type SchemaQuestion } from '../questions';
import type { OpenApiDocument } from '../openapi';
import { type FromSchemaWorker, KEPT_DOCUMENTS, type ToSchemaWorker } from './protocol';

export interface SchemaPort {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  start?(): void;
}

interface Held {
  doc?: OpenApiDocument;
  error?: string;
  answers: Map<string, unknown>;
}

export function hostSchemas(port: SchemaPort): void {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const held = new Map<string, Held>();
  const post = (m: FromSchemaWorker) => port.postMessage(m);
  const load = (key: string, bytes: ArrayBuffer) => {
    const h: Held = { answers: new Map() };
    try {
      h.doc = JSON.parse(new TextDecoder().decode(bytes)) as OpenApiDocument;
    } catch (e) {
      h.error = `the OpenAPI document is not JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
    held.delete(key);
    held.set(key, h);
    while (held.size > KEPT_DOCUMENTS) held.delete(held.keys().next().value!);
  };
  const ask = (id: number, key: string, question: SchemaQuestion) => {
    const h = held.get(key);
    if (!h) return post({ t: 'missing', id });
    held.delete(key);
    held.set(key, h);
    if (!h.doc) return post({ t: 'failed', id, message: h.error ?? 'no document' });
    const qk = JSON.stringify(question);
    try {
      if (!h.answers.has(qk)) h.answers.set(qk, answer(h.doc, question));
      post({ t: 'answer', id, value: h.answers.get(qk) });
    } catch (e) {
      post({ t: 'failed', id, message: e instanceof Error ? e.message : String(e) });
    }
  };
  port.addEventListener('message', (ev) => {
    const m = ev.data as ToSchemaWorker;
    if (m.t === 'load') load(m.key, m.bytes);
    else if (m.t === 'ask') ask(m.id, m.key, m.question);
  });
  port.start?.();
}
