// The page's side of the schema worker: ask a question about a group version's document, and get
// only the answer. The page fetches the document's bytes (kubeFetch: token, recording, replay)
// and transfers them to the worker undecoded; where there is no Worker (tests in Node), the
// document is parsed and answered in the page, by the same functions.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { errorFromResponse, kubeFetch, kubeJson } from '../../client';
import type { OpenApiDocument } from '../openapi';
import { answer, type Answers, type SchemaQuestion } from '../questions';
import type { FromSchemaWorker, ToSchemaWorker } from './protocol';

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  missing: () => void;
}

class SchemaWorker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Documents handed to the worker (or on their way), by key. */
  private readonly loaded = new Map<string, Promise<void>>();

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (ev: MessageEvent) => this.onMessage(ev.data as FromSchemaWorker));
    worker.addEventListener('error', (ev) => {
      // The worker could not start or died: every question waiting fails, and later ones are
      // answered in the page.
      ev.preventDefault();
      schemaWorker = null;
      for (const p of this.pending.values()) p.reject(new Error(`the schema worker stopped: ${ev.message || 'error'}`));
      this.pending.clear();
    });
  }

  private onMessage(m: FromSchemaWorker): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.t === 'answer') p.resolve(m.value);
    else if (m.t === 'failed') p.reject(new Error(m.message));
    else p.missing();
  }

  // Not cancelled with the asking view: others may wait for the same document, and it is kept.
  private load(context: string, url: string, key: string): Promise<void> {
    let l = this.loaded.get(key);
    if (!l) {
      l = (async () => {
        const res = await kubeFetch({ context, path: url, headers: { Accept: 'application/json' } });
        if (!res.ok) throw await errorFromResponse(res);
        const bytes = await res.arrayBuffer();
        this.post({ t: 'load', key, bytes }, [bytes]);
      })();
      this.loaded.set(key, l);
      l.catch(() => this.loaded.delete(key));
    }
    return l;
  }

  private post(m: ToSchemaWorker, transfer: Transferable[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  async ask(context: string, url: string, question: SchemaQuestion, again = true): Promise<unknown> {
    const key = `${context}\u0000${url}`;
    await this.load(context, url, key);
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, {
        resolve,
        reject,
        // The worker let the document go (it keeps the few last used): load it once more.
        missing: () => {
          this.loaded.delete(key);
          if (again) this.ask(context, url, question, false).then(resolve, reject);
          else reject(new Error('the schema worker does not hold the document'));
        },
      });
      this.post({ t: 'ask', id, key, question });
    });
  }
}

let schemaWorker: SchemaWorker | null | undefined;

function theWorker(): SchemaWorker | null {
  if (schemaWorker !== undefined) return schemaWorker;
  if (typeof Worker === 'undefined') return (schemaWorker = null);
  try {
    schemaWorker = new SchemaWorker(new Worker(new URL('./entry.ts', import.meta.url), { type: 'module', name: 'openapi-schemas' }));
  } catch {
    schemaWorker = null;
  }
  return schemaWorker;
}

/** Documents parsed in the page, where there is no worker. */
const inPage = new Map<string, Promise<OpenApiDocument>>();

/**
 * The answer to a question about the document at `url` (a `?hash=` URL from the /openapi/v3
 * index) of `context`. Fetch failures reject with the server's error (KubeApiError).
 */
export async function askSchema<Q extends SchemaQuestion>(context: string, url: string, question: Q): Promise<Answers[Q['q']]> {
  const w = theWorker();
  if (w) return (await w.ask(context, url, question)) as Answers[Q['q']];
  const key = `${context}\u0000${url}`;
  let doc = inPage.get(key);
  if (!doc) {
    doc = kubeJson<OpenApiDocument>({ context, path: url });
    inPage.set(key, doc);
    doc.catch(() => inPage.delete(key));
  }
  return answer(await doc, question);
}

/**
 * A question's answer as a query: kept for good, since a `?hash=` URL never changes content. No
 * document URL yet (the index not read, or without this group version), or no question (the kind
 * not known yet): nothing is asked.
 */
export const schemaAnswerQuery = <Q extends SchemaQuestion>(context: string, url: string | undefined, question: Q | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'openapi', 'answer', url ?? '', question],
    queryFn: url && question ? () => askSchema(context, url, question) : skipToken,
    staleTime: Infinity,
  });
