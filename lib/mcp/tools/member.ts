import { z } from "zod";
import { listMemberEnrollments } from "../../membership/list-member-enrollments";
import { listMemberSubscriptions } from "../../membership/list-member-subscriptions";
import { presentEnrollment, presentSubscription } from "../../membership/presenter";
import { userInfoClaims } from "../../oauth/userinfo";
import type { McpContext } from "../context";
import { fail, ok } from "../results";
import { enrollmentSchema, subscriptionSchema } from "../schemas";
import type { ToolRegistrar } from "../tool-registrar";

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

type MemberTool = "get_my_profile" | "list_my_subscriptions" | "list_my_enrollments";

type Member = Extract<McpContext["caller"], { kind: "member" }>;

/** The signed-in member (the registrar already refused API keys: member tools need a person). */
const member = (ctx: McpContext): { refused: string } | { caller: Member } =>
  ctx.caller.kind === "member" ? { caller: ctx.caller } : { refused: "A signed-in member is needed." };

/** The signed-in member's own data; refused for API keys (they act for no person). */
export function registerMemberTools(tool: ToolRegistrar<MemberTool>) {
  tool(
    "get_my_profile",
    {
      title: "My profile",
      description: "Who is signed in: the OpenID Connect UserInfo claims of the token (sub, name and picture with profile, email with email, org_id, roles in this school).",
      inputSchema: {},
      outputSchema: {
        sub: z.string(),
        name: z.string().optional(),
        picture: z.string().optional(),
        email: z.string().optional(),
        email_verified: z.boolean().optional(),
        org_id: z.string(),
        roles: z.array(z.string()),
      },
      annotations: { title: "My profile", ...READ_ONLY },
    },
    async (_args, ctx) => {
      const m = member(ctx);
      if ("refused" in m) return fail(m.refused);
      const claims = userInfoClaims({ user: m.caller.user, schoolId: ctx.school.id, scopes: m.caller.scopes, roles: m.caller.roles });
      return ok(claims);
    },
  );

  tool(
    "list_my_subscriptions",
    {
      title: "My subscriptions",
      description: "The signed-in member's subscriptions at this school, oldest first, with plan, state and period (Unix seconds).",
      inputSchema: {},
      outputSchema: { subscriptions: z.array(subscriptionSchema) },
      annotations: { title: "My subscriptions", ...READ_ONLY },
    },
    async (_args, ctx) => {
      const m = member(ctx);
      if ("refused" in m) return fail(m.refused);
      const rows = await listMemberSubscriptions({ schoolId: ctx.school.id, userId: m.caller.user.id, now: ctx.now() });
      const subscriptions = rows.map(presentSubscription);
      const text = subscriptions.length
        ? subscriptions.map((s) => `- ${s.plan.name}: ${s.state}${s.isCanceling ? " (cancellation scheduled)" : ""}, id ${s.id}`).join("\n")
        : "You have no subscriptions at this school.";
      return ok({ subscriptions }, text);
    },
  );

  tool(
    "list_my_enrollments",
    {
      title: "My enrollments",
      description: "The courses the signed-in member is enrolled in at this school, oldest enrollment first.",
      inputSchema: {},
      outputSchema: { enrollments: z.array(enrollmentSchema) },
      annotations: { title: "My enrollments", ...READ_ONLY },
    },
    async (_args, ctx) => {
      const m = member(ctx);
      if ("refused" in m) return fail(m.refused);
      const enrollments = (await listMemberEnrollments({ schoolId: ctx.school.id, userId: m.caller.user.id })).map(presentEnrollment);
      const text = enrollments.length ? enrollments.map((e) => `- ${e.course.title} (since ${new Date(e.createdAt * 1000).toISOString()})`).join("\n") : "You are not enrolled in any course at this school.";
      return ok({ enrollments }, text);
    },
  );
}
