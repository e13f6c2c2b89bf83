import http from 'node:http';
import https from 'node:https';
import { ApiError } from '@platform/service-kit/errors';
import { assertSafeTarget, guardedLookup, UnsafeTargetError, type TargetPolicy } from '@platform/service-kit/ssrf-guard';

/** Where an organization puts the token that proves it controls a domain. */
export const DOMAIN_PROOF_PATH = '/.well-known/partner-platform-issuer.txt';
const FETCH_TIMEOUT_MS = 5000;
const MAX_PROOF_BYTES = 4096;

/**
 * A domain as an organization may claim it: a lower-case host name (IDNs in their `xn--` form), with a port only when
 * the platform is told to check local servers (ISSUER_DOMAIN_ALLOW_PRIVATE, development and tests).
 */
export function normalizeDomain(input: string, policy: TargetPolicy): string | null {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  const port = policy.allowPrivate ? '(?::[0-9]{1,5})?' : '';
  if (domain.length > 253 || !new RegExp(`^${label}(?:\\.${label})*${port}$`).test(domain)) return null;
  return domain;
}

/** The URL the proof is read from: https, or http when the platform is told to check local servers without TLS. */
export function proofUrl(domain: string, policy: TargetPolicy): string {
  return `${policy.allowHttp ? 'http' : 'https'}://${domain}${DOMAIN_PROOF_PATH}`;
}

/** The one answer to a domain the guard refuses: it does not say what the name resolved to. */
export const DOMAIN_REFUSED = 'The domain must resolve only to public addresses: the platform does not fetch from loopback, private or reserved addresses.';

const refused = (message: string, code: string) => new ApiError(422, code, message);

/**
 * Reads the proof file through the platform's SSRF guard (the same one the mobility webhooks go through): the host must
 * resolve only to public addresses, the connection goes to the address that was checked, no redirect is followed, and
 * at most 4 kB is read within 5 s. Answers the file's text, or throws a 422 saying what was wrong.
 */
export async function fetchDomainProof(url: string, policy: TargetPolicy): Promise<string> {
  let target: URL;
  try {
    target = await assertSafeTarget(url, policy);
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw refused(DOMAIN_REFUSED, 'domain_refused');
    throw error;
  }
  const lookup = guardedLookup(policy);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(target, { lookup, timeout: FETCH_TIMEOUT_MS, headers: { 'User-Agent': 'partner-platform-issuer-check', Accept: 'text/plain' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(refused(`The proof file could not be read: ${url} answered ${res.statusCode}.`, 'domain_unreachable'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_PROOF_BYTES) {
          req.destroy();
          reject(refused(`The proof file at ${url} is larger than ${MAX_PROOF_BYTES} bytes.`, 'domain_proof_mismatch'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', () => reject(refused(`The proof file could not be read from ${url}.`, 'domain_unreachable')));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => {
      if (error instanceof UnsafeTargetError) reject(refused(DOMAIN_REFUSED, 'domain_refused'));
      else reject(refused(`The proof file could not be read from ${url}: the domain did not answer.`, 'domain_unreachable'));
    });
  });
}
