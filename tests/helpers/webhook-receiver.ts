// A webhook receiver for tests: a node:http server on port 0 that verifies every delivery with the
// standardwebhooks library (as an integrator would) and records it; the reply is chosen per request.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  payload: any;
  /** Which of the receiver's secrets verified it (index into secrets), or -1. */
  verifiedWith: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Hold the answer this long (ms). */
  delayMs?: number;
  /** The answer's body (none by default). */
  body?: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Secrets the receiver knows (a new one is pushed after a rotation). */
  secrets: string[];
  reply: (r: Received) => Reply;
  close(): Promise<void>;
}

function verifyWith(secrets: string[], body: string, headers: IncomingHttpHeaders): number {
  const h = { "webhook-id": String(headers["webhook-id"]), "webhook-timestamp": String(headers["webhook-timestamp"]), "webhook-signature": String(headers["webhook-signature"]) };
  return secrets.findIndex((s) => {
    try {
      new Webhook(s).verify(body, h);
      return true;
    } catch {
      return false;
    }
  });
}

export async function startReceiver(secrets: string[] = []): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], secrets, reply: () => ({ status: 204 }), close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const r: Received = {
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body,
        payload: JSON.parse(body),
        verifiedWith: verifyWith(receiver.secrets, body, req.headers),
      };
      receiver.received.push(r);
      const reply = receiver.reply(r);
      const answer = () => {
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return receiver;
}
