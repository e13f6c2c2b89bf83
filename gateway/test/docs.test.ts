import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '@platform/test-kit';
import { startGateway } from './helpers';

// Both upstreams are down (nothing listens on port 9): the docs come from the services' built description files.
const DOWN = 'http://127.0.0.1:9';
let gateway: RunningServer;

beforeAll(async () => {
  gateway = await startGateway({ certificate: DOWN, mobility: DOWN });
});
afterAll(() => gateway.close());

describe('API docs served by the gateway', () => {
  it('serves the merged description at /openapi.json while the services are down', async () => {
    const res = await fetch(`${gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as { openapi: string; info: { title: string }; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Partner API');
    expect(document.paths).toHaveProperty(['/api/v1/verify/{code}']);
    expect(document.paths).toHaveProperty(['/api/v1/rides']);
    expect(Object.keys(document.paths).some((path) => path.startsWith('/admin/'))).toBe(false);
  });

  it('serves /docs as an HTML page that loads the renderer from the gateway itself and points it at /openapi.json', async () => {
    const res = await fetch(`${gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const html = await res.text();
    expect(html).toContain('/openapi.json');
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN: the machine may have no internet
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    const bundle = await fetch(new URL(scripts[0]!, gateway.url));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^application\/javascript/);
    const code = await bundle.text();
    expect(code.length).toBeGreaterThan(100_000);
    expect(code).toContain('createApiReference');
    expect(html).toContain('data-url="/openapi.json"');
  });

  it('answers /docs, its renderer bundle and /openapi.json with a strict Content-Security-Policy', async () => {
    const page = await fetch(`${gateway.url}/docs`);
    const html = await page.text();
    const bundlePath = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!)[0]!;
    for (const p of ['/docs', bundlePath, '/openapi.json']) {
      const res = await fetch(gateway.url + p);
      await res.arrayBuffer();
      const policy = directives(res.headers.get('content-security-policy'));
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      const scripts = policy.get('script-src')!;
      expect(scripts[0]).toBe("'self'");
      expect(scripts.slice(1).every((source) => source.startsWith("'sha256-"))).toBe(true); // no unsafe-inline, no unsafe-eval, no host
    }
    // Every inline script of the page is allowed by its hash, and nothing else inline is.
    const allowed = directives(page.headers.get('content-security-policy')).get('script-src')!;
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
    expect(inline.length).toBeGreaterThan(0);
    expect(allowed.slice(1).sort()).toEqual([...new Set(inline)].sort());
  });

  it('still answers anything else with the JSON 404', async () => {
    const res = await fetch(`${gateway.url}/docs/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'Route not found', code: 'route_not_found' });
  });

  it('renders the reference in a headless browser where Chromium is installed', async () => {
    const chromium = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => existsSync(file));
    if (!chromium) return; // Chromium is not part of the default machine; the HTML and bundle checks above still hold
    const dir = mkdtempSync(path.join(tmpdir(), 'docs-'));
    try {
      // Asynchronous: the gateway answering the browser runs in this very process.
      const browser = async (...args: string[]) =>
        (await promisify(execFile)(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--window-size=1400,1000', '--virtual-time-budget=30000', ...args, `${gateway.url}/docs`], {
          encoding: 'utf8',
          timeout: 90000,
          maxBuffer: 64 * 1024 * 1024,
        })).stdout;
      const dom = await browser('--dump-dom');
      const shown = ['Partner API', 'Verify a certificate by its verification code', 'Payment webhooks', 'Rides', 'Driver app'];
      expect(shown.filter((text) => !dom.includes(text))).toEqual([]);
      const screenshot = path.join(dir, 'docs.png');
      await browser(`--screenshot=${screenshot}`);
      expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 200000);
});

function directives(header: string | null): Map<string, string[]> {
  expect(header).toBeTruthy();
  return new Map(header!.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}
