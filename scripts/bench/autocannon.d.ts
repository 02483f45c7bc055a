// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    headers?: Record<string, string>;
  }

  export interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(options: AutocannonOptions, callback: (err: Error | null, result: AutocannonResult) => void): Instance;
  export default autocannon;
}
