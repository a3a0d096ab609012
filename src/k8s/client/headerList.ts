// Headers as an ordered list of pairs, as they went over the wire (a Map or Headers object would
// merge repeated names and lose their order). Its own module so that the transport (kubeFetch,
// the mux) and the exchange model can share it without importing each other.
export type HeaderList = [name: string, value: string][];

/** All values of one header, joined as HTTP joins repeated fields (", "); undefined when absent. */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const n = name.toLowerCase();
  const all = headers.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
  return all.length ? all.join(', ') : undefined;
}
