import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { closeServer } from '@platform/service-kit/shutdown';
import { sendJson, startFakeServer } from '@platform/test-kit';
import { createApp } from '../src/app';
import { gatewayConfigSchema } from '../src/config';
import { createGatewayServer } from '../src/server-factory';
import { parseConfig } from '@platform/service-kit/config';

type Fake = Awaited<ReturnType<typeof startFakeServer>>;

let dir: string;
let certFile: string;
let keyFile: string;
let upstream: Fake;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-tls-'));
  certFile = path.join(dir, 'cert.pem');
  keyFile = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  upstream = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>) {
  const config = parseConfig(gatewayConfigSchema, { CERTIFICATE_URL: upstream.url, MOBILITY_URL: upstream.url, ...env });
  const server = createGatewayServer(createApp({ config, logger: pino({ level: 'silent' }) }), config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

function getOverTls(port: number, pathname: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path: pathname, ca: readFileSync(certFile), agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway TLS', () => {
  it('serves HTTPS with HSTS on its own and proxied answers when TLS_CERT_FILE and TLS_KEY_FILE are set', async () => {
    const { server, port } = await serve({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
    try {
      const health = await getOverTls(port, '/healthz');
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const proxied = await getOverTls(port, '/api/v1/credits');
      expect(proxied.status).toBe(200);
      expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      await closeServer(server);
    }
  });

  it('serves plain HTTP without HSTS otherwise', async () => {
    const { server, port } = await serve({});
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await closeServer(server);
    }
  });

  it('refuses to start with only one of the two TLS files', () => {
    expect(() => parseConfig(gatewayConfigSchema, { TLS_CERT_FILE: certFile })).toThrow(
      `Invalid environment variable TLS_KEY_FILE: must be set when TLS_CERT_FILE is (got unset)`,
    );
  });
});
