// har-schema ships JSON Schemas without type declarations.
declare module 'har-schema' {
  const schemas: Record<string, object>;
  export default schemas;
}
