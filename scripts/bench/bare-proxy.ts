/**
 * The floor for bench:gateway: the smallest reverse proxy node:http allows (keep-alive upstream pool, headers copied,
 * answer piped back; no rate limit, request id, log line or metrics). The gateway's cost above this row is its own;
 * the cost of this row above nginx's is node:http's.
 */
import { Agent, createServer, request } from 'node:http';

const upstreamPort = Number(process.env.UPSTREAM_PORT);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

createServer((req, res) => {
  const headers = { ...req.headers };
  delete headers.connection;
  const upstream = request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.once('error', () => {
    res.statusCode = 502;
    res.end();
  });
  req.pipe(upstream);
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
