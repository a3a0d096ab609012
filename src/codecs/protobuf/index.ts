// Kubernetes protobuf, decoded and encoded with the real schemas: the `generated.proto` files of the control
// plane's own module versions, turned into a protobufjs descriptor by tools/generate-proto.ts
// and loaded lazily (the descriptor is ~450 KiB; only views that meet protobuf pay for it).
// The goal is exactly the JSON the server sends for the same object, so the Go JSON rules apply:
// - names are the `json:"…"` tags (carried in the descriptor as `json_name`), embedded structs
//   without a JSON name are inlined (`Volume` holds `VolumeSource`'s fields);
// - the generated marshallers write every non-pointer scalar, even when zero, so presence on the
//   wire says nothing for them: `omitempty` decides; a pointer field is on the wire only when set,
//   and then shown even when zero (`replicas: 0`);
// - types with their own JSON form: metav1.Time (RFC 3339, seconds; zero is `null`), MicroTime
//   (RFC 3339 with microseconds), Duration (Go's duration text), resource.Quantity (its string),
//   intstr.IntOrString, FieldsV1 and apiextensions JSON (raw JSON bytes), runtime.RawExtension
//   (embedded JSON or a nested `k8s\0` body), the JSONSchemaPropsOr* unions, slice types that
//   travel as a message with `items` (`ExtraValue`); `[]byte` is base64 as encoding/json writes it.
// - TypeMeta is not on the wire in protobuf: apiVersion and kind come from the runtime.Unknown
//   envelope (and list items carry none, as in JSON).
// Pure: bytes in, values or an error out.
//
// The parts: fields.ts (the schema-less field view and the `k8s\0` envelope), schema.ts (the
// descriptor), plan.ts (each type's JSON rules), json.ts (messages to the JSON form), goText.ts
// (Go's time and duration texts), decode.ts (bodies and watch streams), encode.ts (the JSON form to
// a message), reader.ts and writer.ts (the wire, walked by the descriptor), compiled.ts (decoders
// generated at build time for the large lists, loaded with the descriptor: faster than the walk),
// lazy.ts (a list read only as far as its rows need), watchStream.ts (a watch stream read as far
// as a watch pane needs per event, without the schema).
export * from './fields';
export { type DescriptorJson, type K8sSchema, loadedK8sSchema, loadK8sSchema, schemaFromDescriptor } from './schema';
export { decodeK8sObject, decodeK8sWatch, type SchemaDecoded } from './decode';
export { encodeK8sObject, withBinaryBytes } from './encode';
export { decodeMessageToJson, jsonDecoder } from './json';
export { writeMessage } from './writer';
export { decodeK8sListLazily, type LazyList, openLazyItem } from './lazy';
export { watchFrameObject } from './watchStream';
