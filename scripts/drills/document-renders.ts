/**
 * Drill: a burst of cold document renders. One organization's template at the pixel cap (a 4000 × 4000 JPEG background
 * and a 2000 × 2000 PNG logo: 20 million pixels decoded), DRILL_RENDERS / 2 (default 10: a free organization's
 * credits) certificates issued with it, and their DRILL_RENDERS public documents (each one's PDF and PNG) asked for at
 * once through the gateway; each client honours 202
 * and 503 with `Retry-After` until it has its document. Meanwhile another client verifies a certificate in a loop.
 * Printed: the verifying client's p99 (target < 250 ms) and the certificate service's peak RSS (target under the
 * memory limit of infra/k8s/certificate.yaml). A document never served, or a verify that is not a 200, is lost.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import { adminAuth, must, sleep, summarize, suffix } from './lib';

const RENDERS = Number(process.env.DRILL_RENDERS ?? 20);
const P99_TARGET_MS = 250;

/** What the drill uses of the canvas library, a dependency of the certificate service (not of the scripts). */
interface Canvas2d {
  fillStyle: string;
  strokeStyle: string;
  lineWidth: number;
  fillRect(x: number, y: number, width: number, height: number): void;
  strokeRect(x: number, y: number, width: number, height: number): void;
}
const canvas = createRequire(path.resolve(__dirname, '../../services/certificate/package.json'))('@napi-rs/canvas') as {
  createCanvas(width: number, height: number): { getContext(kind: '2d'): Canvas2d; toBuffer(type: 'image/jpeg' | 'image/png'): Buffer };
};

function image(width: number, height: number, type: 'image/jpeg' | 'image/png'): string {
  const surface = canvas.createCanvas(width, height);
  const context = surface.getContext('2d');
  // Flat colour with a frame: the files stay under 1 MiB, and the decoded size (what the drill is about) is the same.
  context.fillStyle = '#F5F0E1';
  context.fillRect(0, 0, width, height);
  context.strokeStyle = '#8A5A00';
  context.lineWidth = width / 50;
  context.strokeRect(width / 20, height / 20, (width * 9) / 10, (height * 9) / 10);
  return surface.toBuffer(type).toString('base64');
}

/** The certificate container's memory limit in bytes, read from the manifest. */
function k8sMemoryLimit(): { text: string; bytes: number } {
  const manifest = readFileSync(path.resolve(__dirname, '../../infra/k8s/certificate.yaml'), 'utf8');
  const match = /limits:\s*\{[^}]*memory:\s*(\d+)(Mi|Gi)/.exec(manifest);
  if (!match) return { text: 'unknown', bytes: Number.POSITIVE_INFINITY };
  return { text: `${match[1]}${match[2]}`, bytes: Number(match[1]) * (match[2] === 'Gi' ? 1024 ** 3 : 1024 ** 2) };
}

async function residentBytes(metricsUrl: string): Promise<number> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) })).text();
    return Number(/^process_resident_memory_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Asks for one document until it is served, honouring `Retry-After`; the statuses seen, and whether it came. */
async function fetchDocument(url: string, statuses: number[]): Promise<boolean> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const res = await fetch(url, { signal: AbortSignal.timeout(60000) }).catch(() => null);
    statuses.push(res?.status ?? 0);
    if (!res) continue;
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status === 200) return body.length > 0;
    if (res.status !== 202 && res.status !== 503) return false;
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
  return false;
}

export async function documentRendersDrill(basePort: number): Promise<DrillResult> {
  const system = await startSystem('drill_render', basePort, { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000' });
  try {
    const org = `drill_render_${suffix()}`;
    const owner = adminAuth(org);
    const key = await must(`${system.certificate}/admin/v1/api-keys`, 'POST', owner, { name: 'drill' });
    const template = await must(`${system.certificate}/admin/v1/templates`, 'POST', owner, {
      name: 'Drill: at the pixel cap',
      text_blocks: [{ text: '{{recipient_name}}', x: 0.1, y: 0.4, width: 0.8, font_size: 32, bold: true }],
      background_image: { data: image(4000, 4000, 'image/jpeg') },
      logo: { data: image(2000, 2000, 'image/png') },
    });
    const codes: string[] = [];
    for (let i = 0; i < Math.ceil(RENDERS / 2); i++) {
      const certificate = await must(`${system.certificate}/admin/v1/certificates`, 'POST', owner, {
        recipient_name: `Drill Recipient ${i}`,
        program_title: 'Cold renders',
        issue_date: '2026-05-01',
        template_id: template.id,
      });
      codes.push(certificate.verification_code as string);
    }
    const verifyUrl = `${system.gateway}/api/v1/verify/${codes[0]!}`;
    const auth = `Bearer ${key.token as string}`;
    const limit = k8sMemoryLimit();
    const idleRss = await residentBytes(`${system.certificate}/metrics`);

    let rendering = true;
    let peakRss = idleRss;
    const sampler = (async () => {
      while (rendering) {
        peakRss = Math.max(peakRss, await residentBytes(`${system.certificate}/metrics`));
        await sleep(200);
      }
    })();
    const latencies: number[] = [];
    const verifyStatuses: number[] = [];
    const verifier = (async () => {
      while (rendering) {
        const started = performance.now();
        const res = await fetch(verifyUrl, { headers: { authorization: auth }, signal: AbortSignal.timeout(30000) }).catch(() => null);
        await res?.arrayBuffer();
        latencies.push(performance.now() - started);
        verifyStatuses.push(res?.status ?? 0);
      }
    })();

    const started = Date.now();
    const documentStatuses: number[] = [];
    const urls = Array.from({ length: RENDERS }, (_, i) => `${system.gateway}/credentials/${codes[Math.floor(i / 2)]!}/document.${i % 2 ? 'pdf' : 'png'}`);
    const served = await Promise.all(urls.map((url) => fetchDocument(url, documentStatuses)));
    const seconds = (Date.now() - started) / 1000;
    rendering = false;
    await Promise.all([sampler, verifier]);

    const p99 = percentile(latencies, 99);
    const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;
    const notServed = served.filter((ok) => !ok).length;
    const failedVerifies = verifyStatuses.filter((s) => s !== 200).length;
    console.log(`  ${RENDERS} cold documents (PNG and PDF) of a 20-megapixel template: all asked for at once, served in ${seconds.toFixed(1)} s; answers ${summarize(documentStatuses)}`);
    console.log(`  verify meanwhile: ${latencies.length} requests (${summarize(verifyStatuses)}), p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target < ${P99_TARGET_MS} ms) ${p99 < P99_TARGET_MS ? 'OK' : 'OVER'}`);
    console.log(`  certificate service RSS: ${mb(idleRss)} before, peak ${mb(peakRss)} (k8s limit ${limit.text}) ${peakRss < limit.bytes ? 'OK' : 'OVER'}`);
    return {
      name: `Cold document renders (${RENDERS} at once, 20-megapixel template) while verifying`,
      sent: `${RENDERS} document requests (retried on 202/503), ${latencies.length} verifies`,
      arrived: `${RENDERS - notServed} documents served in ${seconds.toFixed(1)} s; verify p99 ${p99.toFixed(0)} ms; peak RSS ${mb(peakRss)} of ${limit.text}`,
      lost: notServed + failedVerifies,
      doubleApplied: 0,
    };
  } finally {
    await system.stop();
  }
}
