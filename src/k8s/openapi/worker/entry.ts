// The Web Worker that holds the OpenAPI v3 documents (see host.ts): JSON.parse of a multi-MB
// document and the walks over it happen here, off the page's main thread.
import { hostSchemas, type SchemaPort } from './host';

hostSchemas(self as unknown as SchemaPort);
