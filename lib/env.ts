import { z } from "zod";
import { README_DEMO_SECRETS } from "./demo-secrets";

/** A configuration problem; start-up prints its message as one line and exits. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const positiveInt = z.coerce.number().int().positive();

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), "must be a postgres:// or postgresql:// URL");

// Fixed and public: used only under NODE_ENV=test, where tests forge sessions with it. Every other
// run takes AUTH_SECRET or generates one (authSecret() in lib/auth/auth-secret.ts); production
// refuses this value.
export const DEV_AUTH_SECRET = "schoolhouse-dev-only-auth-secret-do-not-use-in-production";

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: postgresUrl.optional(),
    // Migrations need a direct (unpooled) connection: advisory locks and multi-statement DDL do not
    // survive a transaction-mode pooler. Vercel's Postgres integrations name it DATABASE_URL_UNPOOLED.
    DIRECT_DATABASE_URL: postgresUrl.optional(),
    DATABASE_URL_UNPOOLED: postgresUrl.optional(),
    // Set to 1 by Vercel at build and run time; its filesystem does not outlive a request.
    VERCEL: flag.default(false),
    PGLITE_DATA_DIR: z.string().min(1).default(".data/pglite"),
    PLATFORM_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+$/, "must be a lower-case host name without port, e.g. schoolhouse.app")
      .default("localhost"),
    DEFAULT_SCHOOL: z
      .string()
      .regex(/^[a-z0-9-]+$/, "must be a school subdomain")
      .default("demo"),
    // The port `next start` listens on (it reads PORT itself); links printed outside a request
    // (`npm run school`) name it on a loopback platform domain.
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    TRUST_PROXY: flag.default(false),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
    // Unset: seed the demo schools into an empty embedded database only. With DATABASE_URL the demo
    // seed runs only when asked (1); in production it then uses random credentials printed once.
    SEED_ON_START: flag.optional(),
    REDIS_URL: z
      .string()
      .refine((v) => /^rediss?:\/\/.+/.test(v), "must be a redis:// or rediss:// URL")
      .optional(),
    KV_REST_API_URL: z.string().url().optional(),
    KV_REST_API_TOKEN: z.string().min(1).optional(),
    RATE_LIMIT_MUTATIONS: positiveInt.default(200),
    RATE_LIMIT_QUERIES: positiveInt.default(600),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
    // Rate limits (lib/rate-limit): which store (auto: KV when KV_REST_API_* are set, else Redis
    // when REDIS_URL is, else in-memory), the concurrency and execution-time budgets, timeouts.
    RATE_LIMIT_STORE: z.enum(["auto", "memory", "redis", "kv"]).default("auto"),
    RATE_LIMIT_MAX_IN_FLIGHT: positiveInt.default(10),
    RATE_LIMIT_RUNTIME_MS: positiveInt.default(60_000),
    RATE_LIMIT_OPERATION_TIMEOUT_MS: positiveInt.default(30_000),
    RATE_LIMIT_STORE_TIMEOUT_MS: positiveInt.max(500, "must be at most 500 (an outage may add at most 1 s per request)").default(300),
    RATE_LIMIT_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]+$/, "letters, digits, : _ - only").default("sh:rl"),
    // How long the storefront's content cache trusts its last read of the content version (ms): a
    // content write shows within this time; 0 reads it on every request (exact, costs a query).
    STOREFRONT_REVALIDATE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    // Start-up on an unreachable database retries with backoff for this long before giving up
    // (lib/db/wait.ts); 0 tries once.
    DATABASE_STARTUP_WAIT_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
    DEMO_API_KEY: z.string().optional(),
    DEMO_API_KEY_NO_PERMISSIONS: z.string().optional(),
    DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
    // OAuth: access token lifetime, and the hosts whose Client ID Metadata Documents we fetch
    // (comma-separated host names; "*", the default, allows any public host, as the MCP
    // authorization spec recommends; "none" turns CIMD clients off).
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(7200),
    OAUTH_CIMD_ALLOWED_HOSTS: z
      .string()
      .default("*")
      .transform((v) => (v.trim().toLowerCase() === "none" ? [] : v.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean))),
    // Test suites only: lets a CIMD client_id be http:// on a loopback address so tests never need
    // the internet. Refused outside NODE_ENV=test.
    OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS: flag.default(false),
    // Webhooks: the in-process delivery worker of `npm start`, which sends the mail outbox too (off: only the cron route and
    // after-response draining deliver), and, for test suites only, http:// receivers on loopback.
    WEBHOOKS_WORKER: flag.default(true),
    WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: flag.default(false),
    // The embedded demo only: the demo school may deliver to http:// receivers on a loopback
    // address (a developer's own machine, no tunnel). Refused with DATABASE_URL or on Vercel.
    WEBHOOKS_LOCAL_RECEIVERS: flag.default(false),
    // Mail (lib/mail): the one outbound SMTP server, smtp://user:pass@host:587 (STARTTLS when the
    // server offers it) or smtps://…:465 (TLS from the start). Unset: mails are written as .eml
    // files to MAIL_OUTBOX_DIR and their links printed to the server log (the embedded demo);
    // production with DATABASE_URL refuses to start without it while a school sends mail.
    MAIL_URL: z
      .string()
      .refine((v) => /^smtps?:\/\/[^/\s]+/.test(v), "must be an smtp:// or smtps:// URL")
      .optional(),
    MAIL_OUTBOX_DIR: z.string().min(1).default(".data/mail-outbox"),
    // npm run bench's floor routes (/api/bench/floor-write, /api/bench/floor-read: bench/floors.ts).
    // They write to the database, so they answer 404 unless this is set; only the bench's server
    // on its scratch database sets it.
    BENCH_FLOOR_ROUTES: flag.default(false),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && env.AUTH_SECRET === DEV_AUTH_SECRET) {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is the published test secret; generate your own (openssl rand -base64 32)" });
    }
    if (env.NODE_ENV === "production" && env.DATABASE_URL) {
      for (const name of ["DEMO_PASSWORD", "DEMO_API_KEY", "DEMO_API_KEY_NO_PERMISSIONS"] as const) {
        const value = env[name];
        if (value && README_DEMO_SECRETS.includes(value)) {
          ctx.addIssue({ code: "custom", path: [name], message: "is a demo credential published in the README; refused in production" });
        }
      }
    }
    if (env.DATABASE_URL && !env.AUTH_SECRET && env.NODE_ENV === "production") {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required in production with DATABASE_URL (the dev secret is only for the embedded database)",
      });
    }
    if (env.VERCEL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: "is required on Vercel: the embedded database needs a disk that lasts, and a serverless function's does not",
      });
    }
    if (env.RATE_LIMIT_STORE === "redis" && !env.REDIS_URL) {
      ctx.addIssue({ code: "custom", path: ["REDIS_URL"], message: "is required with RATE_LIMIT_STORE=redis" });
    }
    if (env.RATE_LIMIT_STORE === "kv" && !env.KV_REST_API_URL) {
      ctx.addIssue({ code: "custom", path: ["KV_REST_API_URL"], message: "is required with RATE_LIMIT_STORE=kv" });
    }
    if (env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS && env.NODE_ENV !== "test") {
      ctx.addIssue({
        code: "custom",
        path: ["OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS"],
        message: "is only allowed with NODE_ENV=test",
      });
    }
    if (env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS && env.NODE_ENV !== "test") {
      ctx.addIssue({ code: "custom", path: ["WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS"], message: "is only allowed with NODE_ENV=test" });
    }
    if (env.WEBHOOKS_LOCAL_RECEIVERS && (env.DATABASE_URL || env.VERCEL)) {
      ctx.addIssue({ code: "custom", path: ["WEBHOOKS_LOCAL_RECEIVERS"], message: "is only allowed on the embedded demo database (without DATABASE_URL, not on Vercel)" });
    }
    if (Boolean(env.KV_REST_API_URL) !== Boolean(env.KV_REST_API_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: [env.KV_REST_API_URL ? "KV_REST_API_TOKEN" : "KV_REST_API_URL"],
        message: "KV_REST_API_URL and KV_REST_API_TOKEN must be set together",
      });
    }
  });

/** AUTH_SECRET here is only the configured value; authSecret() gives the one in use. */
export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "unset" so that `FOO=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = issue.path.join(".") || "environment";
    throw new ConfigError(`${name}: ${issue.message}`);
  }
  return result.data;
}

/** Whether start-up seeds the demo schools into an empty database (see SEED_ON_START). */
export function seedOnStart(e: Pick<Env, "SEED_ON_START" | "DATABASE_URL">): boolean {
  return e.SEED_ON_START ?? !e.DATABASE_URL;
}

let cached: Env | undefined;

/** The validated environment, parsed once per process. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Test hook: re-read process.env on next access. */
export function resetEnvCache(): void {
  cached = undefined;
}
