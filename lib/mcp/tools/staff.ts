import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isValidIdempotencyKey, requestHashOf, runOnce } from "../../idempotency/run-once";
import { cancelSubscription } from "../../membership/cancel-subscription";
import { createSubscription } from "../../membership/create-subscription";
import { enrollStudentToCourse } from "../../membership/enroll-student";
import { listSubscriptions } from "../../membership/list-subscriptions";
import { pauseSubscription } from "../../membership/pause-subscription";
import { resumeSubscription } from "../../membership/resume-subscription";
import { QueryInputError } from "../../core/page";
import { presentEnrollment, presentPayment, presentSubscription, type SubscriptionWire } from "../../membership/presenter";
import { refundPayment } from "../../billing/refund-payment";
import { changeSubscriptionPlan } from "../../billing/change-subscription-plan";
import type { Payload } from "../../db/write-transaction";
import { SUBSCRIPTION_STATES } from "../../membership/states";
import { updateSubscription } from "../../membership/update-subscription";
import type { ToolName } from "../access";
import { mcpActor, type McpContext } from "../context";
import { fail, ok } from "../results";
import { emailInput, enrollmentSchema, pageSizeInput, paymentSchema, subscriptionSchema, unixSeconds, writeOptions } from "../schemas";
import type { ToolRegistrar } from "../tool-registrar";

type StaffTool =
  | "list_subscriptions"
  | "create_subscription"
  | "update_subscription"
  | "cancel_subscription"
  | "pause_subscription"
  | "resume_subscription"
  | "change_subscription_plan"
  | "refund_payment"
  | "enroll_student";

// Same options object and the same domain functions as the Admin API's resolvers: identical rules and messages.
const describeSubscription = (s: SubscriptionWire) =>
  `${s.user.email} on ${s.plan.name}: ${s.state}${s.isPaused ? " (paused)" : ""}${s.isCanceling ? " (cancellation scheduled)" : ""}, id ${s.id}`;

function payloadResult<R, W extends object>(
  p: Payload<R>,
  dryRun: boolean,
  field: "subscription" | "enrollment",
  present: (r: R) => W,
  describe: (w: W) => string,
): CallToolResult {
  if (!p.record) return fail(p.errors.join("\n"));
  const wire = present(p.record);
  const prefix = dryRun ? "Dry run, nothing was written. Would result in: " : "";
  return ok({ dryRun, [field]: wire }, `${prefix}${describe(wire)}`);
}

/**
 * dry_run: the verb runs in a transaction that is rolled back. idempotency_key: the shared
 * mechanism (lib/idempotency), per grant or API key; a dry run neither uses nor consumes a key.
 */
export async function write(
  ctx: McpContext,
  tool: ToolName,
  args: { dry_run?: boolean; idempotency_key?: string } & Record<string, unknown>,
  run: (dryRun: boolean) => Promise<CallToolResult>,
  /** The copy kept for replays; a secret shown once must not be kept (and replayed) in clear. */
  stored: (result: CallToolResult) => CallToolResult = (result) => result,
): Promise<CallToolResult> {
  const { dry_run: dryRun = false, idempotency_key: key, ...input } = args;
  if (dryRun || key === undefined) return run(dryRun);
  if (!isValidIdempotencyKey(key)) return fail("idempotency_key must be 1 to 255 visible ASCII characters");
  const { caller } = ctx;
  const once = await runOnce(
    {
      schoolId: ctx.school.id,
      owner: caller.kind === "api_key" ? { apiKeyId: caller.credential.id } : { grantId: caller.grantId },
      key,
      requestHash: requestHashOf({ tool, input }),
      now: ctx.now(),
    },
    async () => {
      const result = await run(false);
      return { value: result, body: JSON.stringify(stored(result)) };
    },
  );
  switch (once.kind) {
    case "executed":
      return once.value;
    case "replayed": {
      const stored = JSON.parse(once.body) as CallToolResult;
      return { ...stored, _meta: { ...stored._meta, "schoolhouse/idempotent_replay": true } };
    }
    case "reused":
      return fail("This idempotency_key was already used with different arguments; use a new key for a new request.");
    case "in_progress":
      return fail("A call with this idempotency_key is still running; retry shortly.");
  }
}

export const writeAnnotations = (title: string, destructive: boolean, idempotent: boolean) => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

export function registerStaffTools(tool: ToolRegistrar<StaffTool>) {
  const subscriptionId = z.string().max(64).describe("The subscription's id (from list_subscriptions)");
  const subscriptionOutput = { dryRun: z.boolean(), subscription: subscriptionSchema };

  tool(
    "list_subscriptions",
    {
      title: "List subscriptions (staff)",
      description:
        "Staff only. The school's subscriptions, oldest first, filtered by state, email or plan; first: 1 to 100 (default 50); after: the previous page's endCursor.",
      inputSchema: {
        state: z.enum(SUBSCRIPTION_STATES as [string, ...string[]]).optional().describe("Only subscriptions in this state"),
        email: emailInput("Only subscriptions of the member with this email address").optional(),
        planId: z.string().max(64).optional().describe("Only subscriptions to this plan (an id from list_membership_plans)"),
        first: pageSizeInput,
        after: z.string().max(512).optional().describe("pageInfo.endCursor of the previous page; omit for the first page"),
      },
      outputSchema: { subscriptions: z.array(subscriptionSchema), pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }) },
      annotations: { title: "List subscriptions", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      try {
        const page = await listSubscriptions({ schoolId: ctx.school.id, filter: args, now: ctx.now() });
        const subscriptions = page.nodes.map(presentSubscription);
        const text = subscriptions.length ? subscriptions.map((s) => `- ${describeSubscription(s)}`).join("\n") : "No subscription matches.";
        return ok({ subscriptions, pageInfo: page.pageInfo }, page.pageInfo.hasNextPage ? `${text}\nMore: after=${page.pageInfo.endCursor}` : text);
      } catch (err) {
        if (err instanceof QueryInputError) return fail(err.message);
        throw err;
      }
    },
  );

  tool(
    "create_subscription",
    {
      title: "Create a subscription (staff)",
      description:
        "Staff only. Subscribes a person (created when new: pass name) to one of the school's plans, with the Admin API's createSubscription rules. expireAt: fixed_date and specific_length plans only; initialChargeAt: recurring plans only (Unix seconds).",
      inputSchema: {
        email: emailInput("Email of the member; a user is created when none has it"),
        name: z.string().max(200).optional().describe("Name of the new user: required when no user has this email"),
        planId: z.string().max(64).describe("The plan's id (from list_membership_plans)"),
        expireAt: unixSeconds.optional().describe("Access end (Unix seconds): fixed_date and specific_length plans only"),
        initialChargeAt: unixSeconds.optional().describe("End of the first period and first charge (Unix seconds): recurring plans only"),
        collectionMethod: z
          .enum(["external", "charge_automatically"])
          .optional()
          .describe("external (default: the school collects payments elsewhere) or charge_automatically (the payment provider charges paymentMethod)"),
        paymentMethod: z
          .string()
          .max(64)
          .optional()
          .describe("charge_automatically only: in test mode a test card number (4242424242424242 succeeds, 4000000000000002 is declined) or its pm_card_* token"),
        ...writeOptions,
      },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Create a subscription", false, false),
    },
    async (args, ctx) => {
      const input = {
        email: args.email,
        name: args.name,
        planId: args.planId,
        expireAt: args.expireAt,
        initialChargeAt: args.initialChargeAt,
        collectionMethod: args.collectionMethod,
        paymentMethod: args.paymentMethod,
      };
      return write(ctx, "create_subscription", args, async (dryRun) =>
        payloadResult(await createSubscription({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun, "subscription", presentSubscription, describeSubscription),
      );
    },
  );

  tool(
    "update_subscription",
    {
      title: "Move a subscription's period end (staff)",
      description: "Staff only. Sets the end of the current period (Unix seconds), with the Admin API's updateSubscription rules.",
      inputSchema: {
        id: subscriptionId,
        currentPeriodEnd: unixSeconds.describe(
          "New end of the current period (Unix seconds): at most 10 years ahead, at most 1 year back, not before the current period start",
        ),
        ...writeOptions,
      },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Update a subscription", true, true),
    },
    async (args, ctx) => {
      const input = { id: args.id, currentPeriodEnd: args.currentPeriodEnd };
      return write(ctx, "update_subscription", args, async (dryRun) =>
        payloadResult(await updateSubscription({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun, "subscription", presentSubscription, describeSubscription),
      );
    },
  );

  tool(
    "cancel_subscription",
    {
      title: "Cancel a subscription (staff)",
      description:
        "Staff only. Cancels a subscription with the Admin API's cancelSubscription rules: at the period end by default (cancelAtPeriodEnd true), now with cancelAtPeriodEnd false, or at customEndedAt (Unix seconds). A subscription already pending cancellation is cancelled now.",
      inputSchema: {
        id: subscriptionId,
        cancelAtPeriodEnd: z.boolean().optional().describe("true (default): cancel at the end of the current period; false: cancel now"),
        customEndedAt: unixSeconds.optional().describe("End at this time instead (Unix seconds): scheduled when in the future, immediate when past"),
        ...writeOptions,
      },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Cancel a subscription", true, false),
    },
    async (args, ctx) => {
      const input = { id: args.id, cancelAtPeriodEnd: args.cancelAtPeriodEnd ?? true, customEndedAt: args.customEndedAt };
      return write(ctx, "cancel_subscription", args, async (dryRun) =>
        payloadResult(await cancelSubscription({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun, "subscription", presentSubscription, describeSubscription),
      );
    },
  );

  tool(
    "pause_subscription",
    {
      title: "Pause a subscription (staff)",
      description:
        "Staff only. Pauses a subscription with the Admin API's pauseSubscription rules: no charges, no access and no expiry until resume_subscription; the state is kept and isPaused is true. Only active or trialing subscriptions that are not lifetime and not pending cancellation.",
      inputSchema: { id: subscriptionId, ...writeOptions },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Pause a subscription", true, false),
    },
    async (args, ctx) =>
      write(ctx, "pause_subscription", args, async (dryRun) =>
        payloadResult(await pauseSubscription({ schoolId: ctx.school.id, input: { id: args.id }, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun, "subscription", presentSubscription, describeSubscription),
      ),
  );

  tool(
    "resume_subscription",
    {
      title: "Resume a paused subscription (staff)",
      description:
        "Staff only. Resumes a paused subscription with the Admin API's resumeSubscription rules: access again, and the current period end (and a fixed end, and the next charge) moves forward by the time paused.",
      inputSchema: { id: subscriptionId, ...writeOptions },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Resume a subscription", false, false),
    },
    async (args, ctx) =>
      write(ctx, "resume_subscription", args, async (dryRun) =>
        payloadResult(await resumeSubscription({ schoolId: ctx.school.id, input: { id: args.id }, now: ctx.now(), dryRun, actor: mcpActor(ctx) }), dryRun, "subscription", presentSubscription, describeSubscription),
      ),
  );

  tool(
    "change_subscription_plan",
    {
      title: "Change a subscription's plan (staff)",
      description:
        "Staff only. Moves a recurring subscription to another recurring plan at the same interval and currency, with the Admin API's changeSubscriptionPlan rules: an upgrade (same price or higher) takes effect now after a prorated charge for the rest of the period (a refused card changes nothing and its message is the answer); a downgrade is scheduled for the period end (scheduledPlanId); the current plan's id withdraws a scheduled downgrade. A dry run never charges.",
      inputSchema: {
        id: subscriptionId,
        planId: z.string().max(64).describe("The new plan's id (list_membership_plans): recurring, at the subscription's interval and currency"),
        ...writeOptions,
      },
      outputSchema: subscriptionOutput,
      annotations: writeAnnotations("Change a subscription's plan", false, false),
    },
    async (args, ctx) =>
      write(ctx, "change_subscription_plan", args, async (dryRun) =>
        payloadResult(
          await changeSubscriptionPlan({ schoolId: ctx.school.id, input: { id: args.id, planId: args.planId }, now: ctx.now(), dryRun, actor: mcpActor(ctx) }),
          dryRun,
          "subscription",
          presentSubscription,
          describeSubscription,
        ),
      ),
  );

  tool(
    "refund_payment",
    {
      title: "Refund a payment (staff)",
      description:
        "Staff only. Refunds a succeeded payment in full (no amount) or in part with the Admin API's refundPayment rules; retrying the same refund never refunds twice. A refund does not cancel the subscription: use cancel_subscription for that.",
      inputSchema: {
        paymentId: z.string().max(64).describe("The payment's id (a subscription's payments, in the Admin API)"),
        amount: z
          .string()
          .max(32)
          .optional()
          .describe("How much to refund, a decimal string such as 10.00: more than 0, at most what is not yet refunded; omitted: all of it"),
        ...writeOptions,
      },
      outputSchema: { dryRun: z.boolean(), payment: paymentSchema },
      annotations: writeAnnotations("Refund a payment", true, false),
    },
    async (args, ctx) =>
      write(ctx, "refund_payment", args, async (dryRun) => {
        const p = await refundPayment({ schoolId: ctx.school.id, input: { paymentId: args.paymentId, amount: args.amount }, now: ctx.now(), dryRun, actor: mcpActor(ctx) });
        if (!p.record) return fail(p.errors.join("\n"));
        const payment = presentPayment(p.record);
        const prefix = dryRun ? "Dry run, nothing was written. Would result in: " : "";
        return ok({ dryRun, payment }, `${prefix}payment ${payment.id}: ${payment.refundedAmount} of ${payment.amount} ${payment.currency} refunded, state ${payment.state}`);
      }),
  );

  tool(
    "enroll_student",
    {
      title: "Enroll a student (staff)",
      description:
        "Staff only. Enrolls a person (created when new: pass name) in one of the school's courses, with the Admin API's enrollStudentToCourse rules. Enrolling twice returns the same enrollment.",
      inputSchema: {
        courseId: z.string().max(64).describe("The course's id (the Admin API's courses query, or the course page)"),
        email: emailInput("Email of the student; a user is created when none has it"),
        name: z.string().max(200).optional().describe("Name of the new user: required when no user has this email"),
        ...writeOptions,
      },
      outputSchema: { dryRun: z.boolean(), enrollment: enrollmentSchema },
      annotations: writeAnnotations("Enroll a student", false, true),
    },
    async (args, ctx) => {
      const input = { courseId: args.courseId, email: args.email, name: args.name };
      return write(ctx, "enroll_student", args, async (dryRun) =>
        payloadResult(
          await enrollStudentToCourse({ schoolId: ctx.school.id, input, now: ctx.now(), dryRun, actor: mcpActor(ctx) }),
          dryRun,
          "enrollment",
          presentEnrollment,
          (e) => `${e.user.email} enrolled in ${e.course.title}, id ${e.id}`,
        ),
      );
    },
  );
}
