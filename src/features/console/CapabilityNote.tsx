// Says, before sending, when the chosen media type is one this server refused when asked (see
// k8s/capabilities): CBOR on a server without CBORServingAndStorage answers 406 NotAcceptable for
// an Accept and 415 UnsupportedMediaType for a body. The request is still sent as composed (the
// console shows what the server says); the note names the refusal and what works instead.
import { useQuery } from '@tanstack/react-query';
import { useRoute } from '../../routing';
import { capabilitiesQuery, describeRefusal, type Probe } from '../../k8s/capabilities';
import { formatOfContentType } from '../../codecs/formats';

function baseType(v: string): string {
  return (v.split(',')[0] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Which probe speaks for a media type, if any: its wire format's (codecs/formats.ts). */
function probeFor(caps: { cbor: Probe; protobuf: Probe }, mediaType: string): { probe: Probe; name: string } | undefined {
  const f = formatOfContentType(baseType(mediaType));
  return f?.capability ? { probe: caps[f.capability], name: f.label } : undefined;
}

/** A suffix for a media type option: the Accept refusal's status, or, for a body type, that the server does not serve it. */
export function useRefusedLabel(context: string): (mediaType: string, header?: 'Accept' | 'Content-Type') => string {
  const caps = useQuery(capabilitiesQuery(context, useRoute().namespace));
  return (mediaType, header = 'Accept') => {
    const p = caps.data ? probeFor(caps.data, mediaType) : undefined;
    if (p?.probe.answer !== 'no') return '';
    return header === 'Accept' ? ` (refused by this server: ${p.probe.httpStatus ?? ''})` : ` (not served by this server)`;
  };
}

export function CapabilityNote({ context, accept, contentType }: { context: string; accept: string; contentType: string }) {
  const caps = useQuery(capabilitiesQuery(context, useRoute().namespace));
  if (!caps.data) return null;
  const notes = [
    { header: 'Accept', value: accept },
    { header: 'Content-Type', value: contentType },
  ].flatMap(({ header, value }) => {
    const p = value ? probeFor(caps.data, value) : undefined;
    return p && p.probe.answer === 'no' ? [{ header, ...p }] : [];
  });
  if (!notes.length) return null;
  const version = caps.data.version?.gitVersion;
  return (
    <div className="capability-note small" role="note" aria-label="Server capability">
      {notes.map((n) => (
        <p key={n.header}>
          This server{version ? ` (${version})` : ''} does not serve {n.name}: asked with <code>Accept: {n.probe.request.accept}</code> on <code>{n.probe.request.path}</code>, it answered{' '}
          <strong>{describeRefusal(n.probe)}</strong>. {n.header === 'Accept' ? 'Sent as is, this request meets the same 406; JSON, YAML' : 'A body in this type meets 415 UnsupportedMediaType; JSON, YAML'}
          {caps.data.protobuf.answer === 'yes' && n.name !== 'Protobuf' ? ' and Protobuf' : ''} work instead.
        </p>
      ))}
    </div>
  );
}
