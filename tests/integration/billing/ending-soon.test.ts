// The "ending soon" mail (lib/billing/ending-soon.ts; docs/decisions.md, "Mail", "Ending soon"):
// written by the renewal run (cron, in-process worker) ENDING_SOON_DAYS before a scheduled
// cancellation, once per scheduled end however many runs and instances, in the transaction that
// marks it; a school setting like the other mails. PGlite, and Postgres with TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { ENDING_SOON_DAYS, enqueueEndingSoonMails } from "@/lib/billing/ending-soon";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { renderMail } from "@/lib/mail/render";
import { MAIL_TEMPLATES } from "@/lib/mail/templates";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { CANCEL, PLANS, TEST_NOW, adminAppForSuite, gql, subscribe } from "../admin-api/helpers";

const app = adminAppForSuite();
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const KEEP = `mutation K($input: AdminUpdateSubscriptionInput!) { updateSubscription(input: $input) { errors } }`;

const endingSoonMails = async (subscriptionId: string) =>
  (await db().mailMessage.findMany({ where: { kind: "subscription-ending-soon" }, orderBy: { createdAt: "asc" } })).filter(
    (m) => (m.params as Record<string, unknown>).subscriptionId === subscriptionId,
  );

afterEach(async () => {
  await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: [] } });
});

describe("ending soon mail", () => {
  it(`${ENDING_SOON_DAYS} days before a scheduled end: one mail, whatever the runs (two at once included)`, async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect((await gql(app, CANCEL, { input: { id: s.id } })).body.data.cancelSubscription.errors).toEqual([]);
    // Not yet: more than three days before the end.
    await renewDueSubscriptions({ now: at(DEC_21 - ENDING_SOON_DAYS * DAY - 1) });
    expect(await endingSoonMails(s.id)).toHaveLength(0);

    const when = at(DEC_21 - ENDING_SOON_DAYS * DAY);
    const runs = await Promise.all([enqueueEndingSoonMails({ now: when }), enqueueEndingSoonMails({ now: when }), renewDueSubscriptions({ now: when })]);
    expect(runs[0] + runs[1] + runs[2].endingSoonMailed).toBeGreaterThanOrEqual(1);
    await renewDueSubscriptions({ now: at(DEC_21 - DAY) });
    const mails = await endingSoonMails(s.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ schoolId: DEMO_IDS.school, createdAt: when, to: s.user.email });
    expect(mails[0]!.params).toMatchObject({ plan: expect.any(String), endAt: at(DEC_21).toISOString() });

    const school = await db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } });
    const content = await db().$transaction((tx) =>
      MAIL_TEMPLATES["subscription-ending-soon"].render({
        tx,
        school: { id: school.id, name: school.name, brandColor: null, origin: "http://demo.localhost" },
        to: "m@example.com",
        user: null,
        params: mails[0]!.params as Record<string, unknown>,
        now: when,
      }),
    );
    const mail = renderMail(content!, { name: school.name, brandColor: null });
    expect(mail.subject).toContain("ends on December 21, 2026");
    expect(mail.links).toEqual(["http://demo.localhost/account/memberships"]);
  });

  it("taking the cancellation back and scheduling the same end again mails nothing more; a new end is mailed again", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id } });
    await enqueueEndingSoonMails({ now: at(DEC_21 - 2 * DAY) });
    expect(await endingSoonMails(s.id)).toHaveLength(1);
    // Undo (the account page's verb) and cancel again: same end, no second mail.
    await db().subscription.update({ where: { id: s.id }, data: { cancelAt: null, cancelType: null, nextChargeDate: at(DEC_21) } });
    await gql(app, CANCEL, { input: { id: s.id } });
    await enqueueEndingSoonMails({ now: at(DEC_21 - DAY) });
    expect(await endingSoonMails(s.id)).toHaveLength(1);
    // Kept, the period extended, canceled again: the new end gets its own mail.
    await db().subscription.update({ where: { id: s.id }, data: { cancelAt: null, cancelType: null, nextChargeDate: at(DEC_21) } });
    expect((await gql(app, KEEP, { input: { id: s.id, currentPeriodEnd: DEC_21 + 10 * DAY } })).body.data.updateSubscription.errors).toEqual([]);
    await gql(app, CANCEL, { input: { id: s.id } });
    await enqueueEndingSoonMails({ now: at(DEC_21 + 8 * DAY) });
    const mails = await endingSoonMails(s.id);
    expect(mails.map((m) => (m.params as Record<string, unknown>).endAt)).toEqual([at(DEC_21).toISOString(), at(DEC_21 + 10 * DAY).toISOString()]);
  });

  it("a school that turned the kind off gets none (and none later when it turns it back on)", async () => {
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: ["subscription-ending-soon"] } });
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id } });
    await enqueueEndingSoonMails({ now: at(DEC_21 - DAY) });
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: [] } });
    await enqueueEndingSoonMails({ now: at(DEC_21 - DAY + 60) });
    expect(await endingSoonMails(s.id)).toHaveLength(0);
    // Other mails of the school are unaffected: the run still marks what it handled.
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).endingSoonMailedFor).toEqual(at(DEC_21));
  });

  it("an immediate cancellation, a canceled or an ended subscription gets none", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: s.id, cancelAtPeriodEnd: false } });
    await enqueueEndingSoonMails({ now: at(TEST_NOW.getTime() / 1000 + DAY) });
    expect(await endingSoonMails(s.id)).toHaveLength(0);
  });
});
