import { STATUS_INVALID, STATUS_NOT_FOUND, STATUS_OK } from './assumptions.js';

/** What a route answers; the server writes it (or drops it). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Thrown by routes and validators; the server turns it into the failure envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function ok(data: unknown, status: number = STATUS_OK): Reply {
  return { status, body: { success: true, data } };
}

export function fail(status: number, message: string): Reply {
  return { status, body: { success: false, message } };
}

export function invalid(message: string): never {
  throw new HttpError(STATUS_INVALID, message);
}

export function notFound(what: string): never {
  throw new HttpError(STATUS_NOT_FOUND, `${what} not found.`);
}
