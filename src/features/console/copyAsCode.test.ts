import { describe, expect, it } from 'vitest';
import { goString, toClientGo, toClientNode, toPython } from './copyAsCode';

describe('copy as code', () => {
  it('writes Go string literals that keep every byte', () => {
    expect(goString('a "b" \\ c\n')).toBe('"a \\"b\\" \\\\ c\\n"');
    expect(goString('ü')).toBe('"\\xc3\\xbc"');
    expect(goString(new Uint8Array([0x6b, 0x38, 0x73, 0]))).toBe('"k8s\\x00"');
  });

  it('sends the query, headers and body of the request, and streams a watch', () => {
    const req = { method: 'POST', path: '/api/v1/namespaces/x/configmaps?dryRun=All', headers: [['Content-Type', 'application/json']] as [string, string][], body: '{"a": "`"}' };
    const go = toClientGo(req, { context: 'ctx' });
    expect(go).toContain('Param("dryRun", "All")');
    expect(go).toContain('SetHeader("Content-Type", "application/json")');
    expect(go).toContain('Body([]byte("{\\"a\\": \\"`\\"}"))');
    expect(toClientGo({ method: 'GET', path: '/api/v1/pods?watch=1', headers: [] })).toContain('Stream(context.Background())');
    const py = toPython(req, { context: 'ctx' });
    expect(py).toContain('body = json.loads("{\\"a\\": \\"`\\"}")');
    expect(py).toContain('query_params=[("dryRun", "All")]');
    expect(toPython({ method: 'GET', path: '/api', headers: [] })).not.toContain('import json');
    expect(toClientNode(req, { context: 'ctx' })).toContain("kc.setCurrentContext(\"ctx\");");
  });
});
