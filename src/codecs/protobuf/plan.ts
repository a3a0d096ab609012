// How each message type turns into its JSON form: the Go JSON rules read once per type from the
// descriptor's options (json names, omitempty, omitzero, pointers, inlined structs) and the
// types with a JSON form of their own (Time, Quantity, IntOrString, RawExtension…).
import protobuf from 'protobufjs';
import { META } from './schema';

export type Special =
  | 'time'
  | 'microtime'
  | 'duration'
  | 'quantity'
  | 'intorstring'
  | 'rawjson'
  | 'rawextension'
  | 'orarray'
  | 'orbool'
  | 'orstringarray'
  | 'slice';

const SPECIAL: Record<string, Special> = {
  [`.${META}.Time`]: 'time',
  [`.${META}.MicroTime`]: 'microtime',
  [`.${META}.Duration`]: 'duration',
  [`.${META}.FieldsV1`]: 'rawjson',
  '.k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  '.k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
  '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intorstring',
  '.k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawextension',
};
for (const v of ['v1', 'v1beta1']) {
  const p = `.k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${v}`;
  SPECIAL[`${p}.JSON`] = 'rawjson';
  SPECIAL[`${p}.JSONSchemaPropsOrArray`] = 'orarray';
  SPECIAL[`${p}.JSONSchemaPropsOrBool`] = 'orbool';
  SPECIAL[`${p}.JSONSchemaPropsOrStringArray`] = 'orstringarray';
}

export interface FieldPlan {
  name: string;
  json: string;
  omitempty: boolean;
  omitzero: boolean;
  pointer: boolean;
  inline: boolean;
  repeated: boolean;
  map: boolean;
  /** The scalar type (for maps: of the value), or undefined for a message. */
  scalar?: string;
  message?: protobuf.Type;
}

interface Plan {
  special?: Special;
  fields: FieldPlan[];
}

const plans = new WeakMap<protobuf.Type, Plan>();

export function planOf(t: protobuf.Type): Plan {
  let p = plans.get(t);
  if (p) return p;
  const special = SPECIAL[t.fullName] ?? (t.options?.['(k8s.slice)'] ? 'slice' : undefined);
  p = {
    special,
    fields: t.fieldsArray.map((f) => {
      const o = f.options ?? {};
      const resolved = f.resolvedType;
      return {
        name: f.name,
        json: (o.json_name as string | undefined) ?? f.name,
        omitempty: !!o['(k8s.omitempty)'],
        omitzero: !!o['(k8s.omitzero)'],
        pointer: !!o['(k8s.pointer)'],
        inline: !!o['(k8s.inline)'],
        repeated: f.repeated,
        map: f.map,
        scalar: resolved instanceof protobuf.Type ? undefined : f.type,
        message: resolved instanceof protobuf.Type ? resolved : undefined,
      };
    }),
  };
  plans.set(t, p);
  return p;
}
