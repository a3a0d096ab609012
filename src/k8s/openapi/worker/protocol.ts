// Messages between the page and the schema worker (host.ts). The page fetches a document's bytes
// (through kubeFetch: the token, recording and replay stay in one place) and hands them over
// without decoding them; the worker parses and keeps the document and answers questions
// (questions.ts) with only what a view needs.
import type { SchemaQuestion } from '../questions';

/** Page → worker. `key` names a document: the context and its `?hash=` URL. */
export type ToSchemaWorker = { t: 'load'; key: string; bytes: ArrayBuffer } | { t: 'ask'; id: number; key: string; question: SchemaQuestion };

/** Worker → page. `missing`: the worker does not hold the document (never loaded, or let go). */
export type FromSchemaWorker = { t: 'answer'; id: number; value: unknown } | { t: 'failed'; id: number; message: string } | { t: 'missing'; id: number };

/** How many parsed documents the worker keeps; the least recently asked goes first. */
export const KEPT_DOCUMENTS = 8;
