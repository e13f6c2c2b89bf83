import { request, type ClientRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string;
  /** The client's source address, e.g. 127.0.0.2 to be a second client on loopback. */
  localAddress?: string;
}

/** One request on its own connection with node:http (fetch refuses headers such as `Connection`). */
export function send(baseUrl: string, options: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = open(baseUrl, options);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(options.body);
  });
}

/** Starts a request and leaves it open: the caller writes (or trickles) the body. */
export function open(baseUrl: string, options: RawRequest): ClientRequest {
  const url = new URL(baseUrl);
  return request({
    host: url.hostname,
    port: url.port,
    method: options.method ?? 'GET',
    path: options.path,
    headers: options.headers,
    localAddress: options.localAddress,
    agent: false,
  });
}
