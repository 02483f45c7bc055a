import { afterAll, beforeAll } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { startAppServer, type AppServer } from "./app-server";

export interface SuiteAppOptions {
  /** The Host every request carries unless it sets its own. */
  host?: string;
  /** Freeze the service clock here for the suite; null or absent leaves it running. */
  now?: Date | null;
  /** More data after the demo seed, before the server starts. */
  prepare?: () => Promise<void>;
}

/**
 * One suite's app: before the suite, the demo data (plus `prepare`), the clock frozen at `now`
 * and the app behind an HTTP server; after it, the clock restored and the server closed. The
 * returned server forwards to the one started before the suite, so it can be declared at module
 * level.
 */
export function appForSuite(options: SuiteAppOptions = {}): AppServer {
  let server: AppServer | undefined;
  const started = () => {
    if (!server) throw new Error("the app server starts in beforeAll");
    return server;
  };
  beforeAll(async () => {
    await seedDemo({ prisma: db() });
    await options.prepare?.();
    if (options.now) setNow(options.now);
    server = await startAppServer({ host: options.host });
  });
  afterAll(async () => {
    setNow(null);
    await server?.close();
  });
  return {
    get url() {
      return started().url;
    },
    fetch: (pathOrUrl, init) => started().fetch(pathOrUrl, init),
    close: () => started().close(),
  };
}
