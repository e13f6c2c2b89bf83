/** The upstream for bench:gateway: bare node:http answering every request with the same small JSON at once. */
import { createServer } from 'node:http';

const BODY = JSON.stringify({ valid: true, certificate_number: 'CERT-0001', recipient_name: 'Ada Lovelace', status: 'valid' });

createServer((req, res) => {
  req.resume();
  req.once('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
