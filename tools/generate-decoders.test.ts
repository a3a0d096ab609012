// compiled.ts must be what the generator writes for the descriptor in the repository: a
// descriptor regenerated for a newer Kubernetes without `npm run proto:compile` fails here.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { DescriptorJson } from '../src/codecs/protobuf';
import { COMPILED_FILE, DESCRIPTOR_FILE, generateDecoders } from './generate-decoders';

it('compiled.ts is up to date with the descriptor (npm run proto:compile)', () => {
  const desc = JSON.parse(readFileSync(DESCRIPTOR_FILE, 'utf8')) as DescriptorJson;
  expect(generateDecoders(desc) === readFileSync(COMPILED_FILE, 'utf8')).toBe(true);
});

it('refuses a root whose JSON needs the schema at run time (RawExtension), naming the path', () => {
  const desc = JSON.parse(readFileSync(DESCRIPTOR_FILE, 'utf8')) as DescriptorJson;
  expect(() => generateDecoders(desc, ['k8s.io.api.apps.v1.ControllerRevision'])).toThrow(/ControllerRevision\.data reaches .*RawExtension/);
});
