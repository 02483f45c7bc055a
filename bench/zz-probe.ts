import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { seedDemo } from "../lib/startup/seed/seed";
import { randomDemoCredentials } from "../lib/startup/seed/demo-credentials";
import { DEMO_IDS } from "../lib/startup/seed/demo-data";
import { generateMemberDataset, memberSearches } from "../bench/member-dataset";
import { listMembers } from "../lib/membership/list-members";

const members = Number(process.argv[2] ?? 200000);
const handle = dbHandle();
const prisma = handle.prisma;
await migrate({ driver: handle.driver });
await seedDemo({ prisma, credentials: randomDemoCredentials() });
let t = Date.now();
if (members) console.log(await generateMemberDataset(prisma, { members }), "in", Date.now() - t, "ms");
const searches = memberSearches(300);
const times: number[] = [];
for (const [i, search] of searches.entries()) {
  const s = performance.now();
  const page = await listMembers({ schoolId: DEMO_IDS.school, filter: { first: 50, search, state: i % 3 === 2 ? "active" : null }, now: new Date() });
  times.push(performance.now() - s);
  if (i < 6) console.log(search, page.nodes.length, page.pageInfo.hasNextPage);
}
times.sort((a, b) => a - b);
console.log("p50", times[Math.floor(times.length * 0.5)]!.toFixed(1), "p99", times[Math.floor(times.length * 0.99)]!.toFixed(1), "max", times.at(-1)!.toFixed(1));
await closeDbHandle(handle);
