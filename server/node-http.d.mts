// Types of ./node-http.mjs (plain JavaScript: the production entry loads no TypeScript).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PlainRequest, PlainResponse } from "../lib/http/plain";

export class ResponseAborted extends Error {}
export function requestUrl(req: IncomingMessage, server: { hostname: string | undefined; port: number }): string;
export function signalFromResponse(res: ServerResponse): AbortSignal;
export function requestHeaders(req: IncomingMessage): Headers;
export function plainRequest(req: IncomingMessage, server: { hostname: string | undefined; port: number }): PlainRequest;
export function bodyChunks(req: IncomingMessage): AsyncIterable<Uint8Array>;
export function toRequest(req: IncomingMessage, options: { hostname: string | undefined; port: number; signal: AbortSignal }): Request;
export function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  options?: { configHeaders?: ReadonlyArray<readonly [string, string]> },
): Promise<void>;
export function writePlain(
  req: IncomingMessage,
  res: ServerResponse,
  answer: PlainResponse,
  options?: { configHeaders?: ReadonlyArray<readonly [string, string]> },
): Promise<void>;
export const COMPRESSION_THRESHOLD: number;
export function isCompressible(headers: Headers): boolean;
export function contentCoding(header: string | undefined): "gzip" | "deflate" | null;
export function nextPath(raw: string): string;
