// The page an export draws and encodes in: a page of the Chromium the host drives (the web
// shell's and the command line's playwright-launched Chromium, Electron's hidden window),
// reached over the same CdpTransport as targets. WebCodecs needs a secure context, so the page
// is a document at an https origin that does not exist, answered from here through CDP's
// Fetch domain: nothing is served on any port, and the page loads nothing else.
import type { CdpTransport, OpenedTarget } from '../targets/types.js';
import { RENDER_PAGE_SOURCE } from './render-page.generated.js';
import { RENDERER_GLOBAL, type PageRenderer } from './render-page/protocol.js';

export const RENDER_ORIGIN = 'https://export.cutright.invalid';
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><title>CutRight export</title></head><body></body></html>`;
const LOAD_TIMEOUT_MS = 15_000;

/** Opens a page (about:blank) to render in, with a transport onto it; closing it closes the page. */
export type OpenRenderTarget = () => Promise<OpenedTarget>;

type Method = keyof PageRenderer;

export interface RenderPage {
  call<M extends Method>(method: M, ...args: Parameters<PageRenderer[M]>): Promise<Awaited<ReturnType<PageRenderer[M]>>>;
  close(): Promise<void>;
}

interface Paused {
  requestId: string;
  request: { url: string };
}

async function loadPage(transport: CdpTransport): Promise<void> {
  await transport.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
  transport.on('Fetch.requestPaused', (params) => {
    const { requestId, request } = params as Paused;
    if (request.url === `${RENDER_ORIGIN}/`) {
      void transport
        .send('Fetch.fulfillRequest', {
          requestId,
          responseCode: 200,
          responseHeaders: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }],
          body: Buffer.from(PAGE).toString('base64'),
        })
        .catch(() => undefined);
    } else void transport.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
  });
  await transport.send('Page.enable');
  let timer: NodeJS.Timeout | undefined;
  let stop: (() => void) | undefined;
  const loaded = new Promise<void>((resolve, reject) => {
    stop = transport.on('Page.loadEventFired', () => resolve());
    timer = setTimeout(() => reject(new Error(`the export page did not load within ${LOAD_TIMEOUT_MS / 1000} s`)), LOAD_TIMEOUT_MS);
  });
  try {
    const navigated = await transport.send<{ errorText?: string }>('Page.navigate', { url: `${RENDER_ORIGIN}/` });
    if (navigated.errorText) throw new Error(`the export page did not open: ${navigated.errorText}`);
    await loaded;
  } finally {
    clearTimeout(timer);
    stop?.();
  }
}

interface Evaluated {
  result: { objectId?: string; value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

function pageError(what: string, details: NonNullable<Evaluated['exceptionDetails']>): Error {
  return new Error(`the export page failed in ${what}: ${(details.exception?.description ?? details.text).split('\n')[0]}`);
}

/** Opens a render page with the renderer installed. */
export async function openRenderPage(open: OpenRenderTarget): Promise<RenderPage> {
  const target = await open();
  try {
    const { transport } = target;
    await loadPage(transport);
    const installed = await transport.send<Evaluated>('Runtime.evaluate', { expression: `(${RENDER_PAGE_SOURCE})()` });
    if (installed.exceptionDetails) throw pageError('its install', installed.exceptionDetails);
    const objectId = installed.result.objectId;
    if (!objectId) throw new Error(`the export page's renderer (${RENDERER_GLOBAL}) did not install`);
    return {
      async call(method, ...args) {
        const answer = await transport.send<Evaluated>('Runtime.callFunctionOn', {
          objectId,
          functionDeclaration: 'function (method, args) { return this[method](...args); }',
          arguments: [{ value: method }, { value: args }],
          awaitPromise: true,
          returnByValue: true,
        });
        if (answer.exceptionDetails) throw pageError(method, answer.exceptionDetails);
        return answer.result.value as never;
      },
      close: () => target.close(),
    };
  } catch (error) {
    await target.close();
    throw error;
  }
}
