// A small graphql-yoga app with a fake authentication step, standing in for the Admin API: the
// rate-limit plugin runs after authentication and GraphQL validation, as it does there.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import type { Credential } from "@/lib/credentials/credential";
import type { RateLimiter } from "@/lib/rate-limit/limiter";
import { rateLimitPlugin } from "@/lib/rate-limit/yoga-plugin";

export interface TestYoga {
  url: string;
  /** Resolvers named `gated` wait until the test opens the gate. */
  openGate(): void;
  /** How many `gated` resolvers are waiting right now. */
  waiting(): number;
  post(key: string | null, body: { query: string; variables?: Record<string, unknown>; operationName?: string }, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

// Promise.withResolvers is Node 22+; the project runs on 20 too.
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export async function startTestYoga(options: { limiter: RateLimiter; credentials: Record<string, Credential> }): Promise<TestYoga> {
  let gate = deferred();
  let waiting = 0;
  let counter = 0;
  const schema = createSchema<{ credential: Credential | undefined }>({
    typeDefs: /* GraphQL */ `
      type Query {
        hello: String!
        gated: String!
        fail: String
      }
      type Mutation {
        bump: Int!
        gated: String!
      }
    `,
    resolvers: {
      Query: {
        hello: () => "world",
        fail: () => {
          throw new Error("resolver failed");
        },
        gated: async () => {
          waiting++;
          try {
            await gate.promise;
          } finally {
            waiting--;
          }
          return "opened";
        },
      },
      Mutation: {
        bump: () => ++counter,
        gated: async () => {
          waiting++;
          try {
            await gate.promise;
          } finally {
            waiting--;
          }
          return "opened";
        },
      },
    },
  });
  // Authentication like the Admin API's: before parsing, no credential → 401 and no budget headers.
  const fakeAuth: Plugin = {
    onRequest({ request, endResponse }) {
      const key = request.headers.get("x-service-api-key");
      if (!key || !options.credentials[key]) {
        endResponse(
          Response.json({ errors: [{ message: "Missing or unknown API key", extensions: { code: "UNAUTHENTICATED" } }] }, { status: 401 }),
        );
      }
    },
  };
  const yoga = createYoga({
    schema,
    graphqlEndpoint: "/graphql",
    logging: false,
    context: ({ request }) => ({ credential: options.credentials[request.headers.get("x-service-api-key") ?? ""] }),
    plugins: [fakeAuth, rateLimitPlugin({ limiter: options.limiter })],
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return {
    url,
    openGate() {
      gate.resolve();
      gate = deferred();
    },
    waiting: () => waiting,
    post: (key, body, init = {}) =>
      fetch(url, {
        method: "POST",
        ...init,
        headers: { "content-type": "application/json", ...(key ? { "x-service-api-key": key } : {}), ...(init.headers as Record<string, string>) },
        body: JSON.stringify(body),
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
