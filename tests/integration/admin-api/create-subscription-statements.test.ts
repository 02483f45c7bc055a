// What one createSubscription sends to the database, pinned (docs/benchmarks.md, "createSubscription's
// cost"): a new person's request is ONE statement (user, membership, subscription, both events,
// both mails, the audit row: lib/membership/subscribe-new-member.ts) and nothing through Prisma;
// the only other statement a request may send is the API key cache's CredentialVersion check. The
// mail worker then sends the two mails with one claim per batch (mail, school) and, per mail, one
// transaction (the member as they are now, the link's token) and its outcome. PGlite, and Postgres
// with TEST_DATABASE_URL.
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { drainMail } from "@/lib/mail/deliver";
import { now } from "@/lib/clock";
import { FULL_KEY, PLANS, adminAppForSuite, freshEmail } from "./helpers";
import { statementsDuring } from "../../helpers/statements";
import { smtpInboxForSuite } from "../../helpers/suite-env";

const app = adminAppForSuite();
const inbox = smtpInboxForSuite();
beforeEach(async () => {
  await db().mailMessage.deleteMany({});
});

// The bench's request (bench/workloads.ts): the email in the document, only id and state asked back.
const create = async (email: string) => {
  const query = `mutation BenchCreate { createSubscription(input: { email: ${JSON.stringify(email)}, name: "Counted Person", planId: "${PLANS.monthly}" }) { errors subscription { id state } } }`;
  const res = await app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY }, body: JSON.stringify({ query }) });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.data.createSubscription.errors).toEqual([]);
  return body.data.createSubscription.subscription as { id: string; state: string };
};
const beyondKeyCheck = (sql: string[]) => sql.filter((s) => !/^SELECT "version"::text AS "version" FROM "CredentialVersion"/.test(s));
const prisma = (sql: string[]) => sql.filter((s) => s.includes('"public".'));

describe("createSubscription's statements", () => {
  it("a new person: one statement writes everything, nothing through Prisma", async () => {
    await create(freshEmail("warm")); // plan and key cached
    const email = freshEmail("counted");
    const { result, sql } = await statementsDuring(() => create(email));
    expect(result.state).toBe("active");
    expect(beyondKeyCheck(sql)).toHaveLength(1);
    expect(sql.length).toBeLessThanOrEqual(2);
    expect(beyondKeyCheck(sql)[0]).toMatch(/^WITH u AS \( INSERT INTO "User"/);
    expect(prisma(sql)).toEqual([]);
    // What the one statement wrote: every row the change owns, once.
    const user = await db().user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.memberships).toHaveLength(1);
    expect(await db().subscription.count({ where: { userId: user.id } })).toBe(1);
    expect((await db().webhookEvent.findMany({ where: { subjectId: { in: [user.id, result.id] } } })).map((e) => e.type).sort()).toEqual(["member.created", "subscription.created"]);
    expect((await db().mailMessage.findMany({ where: { userId: user.id } })).map((m) => m.kind).sort()).toEqual(["verify-email", "welcome"]);
    expect(await db().auditEvent.count({ where: { targetId: result.id } })).toBe(1);
  });

  it("the mail worker: one claim per batch, then per mail its transaction (member, token) and its outcome", async () => {
    const members = 5; // ten mails: one batch
    const emails = Array.from({ length: members }, (_, i) => freshEmail(`mailed${i}`));
    for (const email of emails) await create(email);
    const { result, sql } = await statementsDuring(() => drainMail({ now, budgetMs: 20_000, log: () => {} }));
    expect(result).toEqual({ attempted: 2 * members, sent: 2 * members });
    for (const email of emails) expect(inbox().mails.filter((m) => m.to.includes(email))).toHaveLength(2);
    const rows = sql.filter((s) => /^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(s));
    // The claim of the batch and the empty claim that ends the drain.
    expect(rows.filter((s) => s.includes('UPDATE "MailMessage" m SET "lockedUntil"'))).toHaveLength(2);
    expect(rows.filter((s) => /FROM "public"\."School"/.test(s))).toEqual([]);
    expect(rows.filter((s) => /FROM "public"\."MailMessage"/.test(s))).toEqual([]);
    // Per mail: the member, the token, the outcome.
    expect(rows.length).toBe(2 + 3 * 2 * members);
  });
});
