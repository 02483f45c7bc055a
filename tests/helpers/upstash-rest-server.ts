// Test-only server that speaks the Upstash REST protocol (what @vercel/kv sends) in front of a
// real Redis: POST / with one command, POST /pipeline and /multi-exec with several, bearer-token
// auth, and `Upstash-Encoding: base64` replies. Lets the same store suite run against @vercel/kv.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";

export interface UpstashRestServer {
  url: string;
  token: string;
  /** HTTP requests served (one per round trip of the client). */
  readonly requests: number;
  /** Commands executed. */
  readonly commands: number;
  close(): Promise<void>;
}

type Reply = string | number | null | Reply[];

function encode(value: unknown, base64: boolean): Reply {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  if (Buffer.isBuffer(value)) {
    const text = value.toString("utf8");
    // Status replies come back as "OK"; the client leaves that one undecoded.
    if (!base64 || text === "OK") return text;
    return value.toString("base64");
  }
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  const text = String(value);
  return base64 && text !== "OK" ? Buffer.from(text).toString("base64") : text;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const isCommand = (v: unknown): v is (string | number)[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string" || typeof x === "number");

export async function startUpstashRestServer(options: { redisUrl: string; token?: string }): Promise<UpstashRestServer> {
  const token = options.token ?? "test-kv-token";
  const redis = new Redis(options.redisUrl);
  let requests = 0;
  let commands = 0;

  const run = async ([name, ...args]: (string | number)[], base64: boolean) => {
    commands++;
    try {
      const reply = await redis.callBuffer(String(name), ...args.map(String));
      return { result: encode(reply, base64) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  };

  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    (async () => {
      requests++;
      if (req.method !== "POST") return send(405, { error: "ERR only POST is supported by this test server" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const path = new URL(req.url ?? "/", "http://x").pathname.replace(/\/+$/, "");
      let body: unknown;
      try {
        body = await readJson(req);
      } catch {
        return send(400, { error: "ERR failed to parse the request body as JSON" });
      }
      if (path === "") {
        if (!isCommand(body)) return send(400, { error: "ERR a command is a non-empty JSON array of strings" });
        const r = await run(body, base64);
        return send(r.error ? 400 : 200, r);
      }
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.every(isCommand)) return send(400, { error: "ERR a pipeline is a JSON array of commands" });
        if (path === "/pipeline") {
          const out = [];
          for (const command of body) out.push(await run(command, base64));
          return send(200, out);
        }
        commands += body.length;
        const tx = redis.multi();
        for (const [name, ...args] of body) tx.callBuffer(String(name), ...args.map(String));
        const replies = (await tx.exec()) ?? [];
        return send(
          200,
          replies.map(([err, reply]) => (err ? { error: err.message } : { result: encode(reply, base64) })),
        );
      }
      return send(404, { error: `ERR unknown path ${path}` });
    })().catch((err: unknown) => send(500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get requests() {
      return requests;
    },
    get commands() {
      return commands;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
