// Types of ./front.mjs (plain JavaScript: the production entry loads no TypeScript).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PlainRequest, PlainResponse } from "../lib/http/plain";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
type Handler = (request: Request, ctx?: unknown) => Response | Promise<Response>;

export const FRONT_METHODS: unique symbol;
export const FRONT_PLAIN: unique symbol;
export interface FrontHandler {
  fetch: Handler;
  plain: ((request: PlainRequest) => Promise<PlainResponse>) | undefined;
}
export function fixedRoutes(distDir: string): Map<string, string>;
export function configHeaders(distDir: string, paths: Iterable<string>): Map<string, Array<[string, string]>>;
export function frontHandlers(mod: unknown): Promise<Map<string, FrontHandler> | null>;
export function createFront(options: {
  distDir: string;
  hostname: string | undefined;
  port: number;
  next: Listener;
  log?: (message: string, err?: unknown) => void;
}): Listener;
