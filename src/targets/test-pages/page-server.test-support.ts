// A small HTTP server for the targets' tests: serves pages from a table (path → HTML, or a
// function of the request's URL) on 127.0.0.1 (or another loopback host), so each test page
// has a real origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PageSource = string | ((url: URL) => string | undefined);

export interface PageServer {
  /** `http://host:port` */
  origin: string;
  /** The page's full URL. */
  url(path: string): string;
  close(): Promise<void>;
}

export async function servePages(pages: Record<string, PageSource>, host = '127.0.0.1'): Promise<PageServer> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const source = pages[url.pathname];
    const html = typeof source === 'function' ? source(url) : source;
    if (html === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    origin,
    url: (path) => origin + path,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
