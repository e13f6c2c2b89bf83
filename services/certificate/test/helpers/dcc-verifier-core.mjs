// Runs the Digital Credentials Consortium's verifier (@digitalcredentials/verifier-core, the code its wallet and
// VerifierPlus run) on the credential read from standard input, in a Node process of its own: it is ES modules all
// the way down, which jest's CommonJS runtime does not load. Prints one JSON line: its answer and every URL it fetched.
//
// verifier-core takes no document loader; everything it reads goes through the global `fetch` (did:web documents,
// status lists, JSON Schemas; its bundled JSON-LD contexts cover the rest). DCC_URL_MAP (JSON, URL prefix → loopback
// prefix) sends those addresses to loopback servers the test runs; any other address is refused, so nothing leaves the
// machine.
import { readFileSync } from 'node:fs';

/* global URL, Request */

const map = Object.entries(JSON.parse(process.env.DCC_URL_MAP ?? '{}'));
const fetched = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const route = map.find(([prefix]) => url.startsWith(prefix));
  fetched.push({ url, answered: Boolean(route) });
  if (!route) throw new TypeError(`offline: ${url} is not served by this test`);
  const target = route[1] + url.slice(route[0].length);
  return realFetch(target, input instanceof Request ? { method: input.method, headers: input.headers } : init);
};

// Its schema step reports a failure to fetch with console.log/console.error: keep standard output for the answer.
console.log = console.error;
const { verifyCredential } = await import('@digitalcredentials/verifier-core');
const credential = JSON.parse(readFileSync(0, 'utf8'));
const result = await verifyCredential({ credential, knownDIDRegistries: [] });
process.stdout.write(`${JSON.stringify({ result: { ...result, credential: undefined }, fetched })}\n`);
