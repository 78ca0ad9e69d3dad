import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One raw HTTP request (exact bytes, our headers). `chunked` sends the body in pieces without a
 * Content-Length, as a streaming sender would.
 */
export function send(
  url: string,
  options: { method?: string; body?: Buffer; headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body;
    const headers: Record<string, string> = { ...options.headers };
    if (body && !options.chunked) headers['content-length'] = String(body.length);
    const req = request(url, { method: options.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    // The server may answer and close before the whole body is written (413): the answer still counts.
    req.on('error', reject);
    if (body && options.chunked) {
      const piece = 64 * 1024;
      let at = 0;
      const writeMore = () => {
        while (at < body.length) {
          const ok = req.write(body.subarray(at, at + piece));
          at += piece;
          if (!ok) return void req.once('drain', writeMore);
        }
        req.end();
      };
      writeMore();
    } else {
      req.end(body);
    }
  });
}
