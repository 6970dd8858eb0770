// What Node's HTTP parser refuses never reaches the app: a header over 16 KiB, a
// malformed request line, a request that does not arrive within its timeout. Node would
// answer those with a bare status and no body; here they get the one error shape, on a
// complete HTTP/1.1 answer that closes the connection. A client that resets its
// connection is no error of ours: one line at debug level.

import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { errorObject, type ErrorObject } from './errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** Errors that only say the client went away. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function isClientGone(err: unknown): boolean {
  return GONE.has(String((err as NodeJS.ErrnoException | undefined)?.code));
}

function classify(code: string | undefined): ErrorObject {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return errorObject({ code: 'headers_too_large', detail: `the request line and headers are over ${maxHeaderSize} bytes` });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorObject({ code: 'request_timeout', detail: 'the request did not arrive in time; send it again, whole' });
    default:
      return errorObject({ code: 'bad_request', detail: 'the request is not valid HTTP/1.1' });
  }
}

/** A whole HTTP/1.1 answer in the error shape, with the headers every answer has. */
export function rawErrorResponse(error: ErrorObject, requestId: string): string {
  const body = JSON.stringify({ errors: [error] });
  const status = Number(error.status);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...SECURITY_HEADERS,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head.join('\r\n')}\r\n\r\n${body}`;
}

export function answerClientErrors(server: Server, log: Logger): void {
  // The answer the app is writing on each socket, if any: a timeout may fire while the
  // app waits for a body. Its request id names our answer too; and once its headers are
  // out, nothing more may be written, or the client would read a corrupt stream.
  const responding = new WeakMap<Socket, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    responding.set(req.socket, res);
    res.once('close', () => {
      if (responding.get(req.socket) === res) responding.delete(req.socket);
    });
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (isClientGone(err)) {
      log.debug({ code: err.code }, 'client reset the connection');
      socket.destroy();
      return;
    }
    const inFlight = responding.get(socket);
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = String(inFlight?.getHeader('x-request-id') ?? randomUUID());
    const error = classify(err.code);
    // Never err.rawPacket or the message: they may quote the request, tokens included.
    log.info({ req_id: requestId, status: Number(error.status), code: err.code ?? null }, 'client error');
    socket.end(rawErrorResponse(error, requestId), () => socket.destroy());
  });
}
