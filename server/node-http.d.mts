// Types of ./node-http.mjs (plain JavaScript: the production entry loads no TypeScript).
import type { IncomingMessage, ServerResponse } from "node:http";

export class ResponseAborted extends Error {}
export function requestUrl(req: IncomingMessage, server: { hostname: string | undefined; port: number }): string;
export function signalFromResponse(res: ServerResponse): AbortSignal;
export function toRequest(req: IncomingMessage, options: { hostname: string | undefined; port: number; signal: AbortSignal }): Request;
export function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  options?: { configHeaders?: ReadonlyArray<readonly [string, string]> },
): Promise<void>;
export const COMPRESSION_THRESHOLD: number;
export function isCompressible(headers: Headers): boolean;
export function contentCoding(header: string | undefined): "gzip" | "deflate" | null;
export function nextPath(raw: string): string;
