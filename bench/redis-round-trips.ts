// The Redis limiter's round trips per Admin operation. MONITOR shows every command with the
// client's address; only the bench server's own connections (recognised by their local ports in
// /proc) are counted, so other users of a shared Redis do not disturb the count. INFO commandstats
// is recorded too, but it is server-wide.
import { Redis } from "ioredis";
import { localPortsConnectedTo } from "./server";

export interface RoundTrips {
  operations: number;
  commandsPerOperation: number;
  byCommand: Record<string, number>;
  /** Server-wide INFO commandstats delta per operation (includes any other client's traffic). */
  serverWideCommandsPerOperation: number;
}

async function commandCalls(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  let calls = 0;
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (m[1] !== "info" && m[1] !== "monitor") calls += Number(m[2]);
  }
  return calls;
}

export async function measureRoundTrips(options: {
  redisUrl: string;
  serverPid: number;
  operations: number;
  /** Runs one Admin operation and resolves when it answered. */
  operation: () => Promise<void>;
}): Promise<RoundTrips> {
  const url = new URL(options.redisUrl);
  const redisPort = Number(url.port || 6379);
  const admin = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  const monitorConn = await admin.monitor();
  const seen: { port: number; command: string }[] = [];
  monitorConn.on("monitor", (_time: string, args: string[], source: string) => {
    const port = Number(/:(\d+)$/.exec(source)?.[1]);
    seen.push({ port, command: String(args[0]).toLowerCase() });
  });
  try {
    // Connections and scripts are set up lazily by the first operations: not part of the steady state.
    for (let i = 0; i < 3; i++) await options.operation();
    await new Promise((r) => setTimeout(r, 200));
    seen.length = 0;
    const before = await commandCalls(admin);
    for (let i = 0; i < options.operations; i++) await options.operation();
    await new Promise((r) => setTimeout(r, 300));
    const after = await commandCalls(admin);
    const ports = localPortsConnectedTo(options.serverPid, redisPort);
    const ours = seen.filter((s) => ports.has(s.port));
    const byCommand: Record<string, number> = {};
    for (const s of ours) byCommand[s.command] = (byCommand[s.command] ?? 0) + 1;
    for (const k of Object.keys(byCommand)) byCommand[k] = byCommand[k]! / options.operations;
    return {
      operations: options.operations,
      commandsPerOperation: ours.length / options.operations,
      byCommand,
      serverWideCommandsPerOperation: (after - before) / options.operations,
    };
  } finally {
    monitorConn.disconnect();
    admin.disconnect();
  }
}
