import { z } from "zod";
import { startCheckout } from "../../billing/start-checkout";
import { db } from "../../db/client";
import type { McpContext } from "../context";
import { fail, ok } from "../results";
import type { ToolRegistrar } from "../tool-registrar";

/**
 * create_checkout_link: the provider's hosted checkout for a plan, for the signed-in member (OAuth
 * token) or for an email (Admin API key), so an assistant can help someone join without ever
 * handling card data: the card is typed on the payment page only, and nothing is bought until it is
 * paid there. The server is stateless (no session, no server-to-client requests), so the link is
 * returned in the result (docs/decisions.md, "Billing", "Checkout").
 */
export function registerCheckoutTools(tool: ToolRegistrar<"create_checkout_link">) {
  tool(
    "create_checkout_link",
    {
      title: "Checkout link for a plan",
      description:
        "Starts buying a membership plan and returns the payment page's URL for the person to open in their browser (they type their card there; it never passes through this tool). " +
        "With a member's token: for that member. With an API key: for `email` (and `name` for a new account). Price and currency are the plan's; no tax, no coupons. The link is good for 24 hours.",
      inputSchema: {
        plan_id: z.string().max(64).describe("The plan's id (list_membership_plans)."),
        email: z.string().max(320).optional().describe("API keys only: who buys (a new account is made on payment)."),
        name: z.string().max(200).optional().describe("API keys only: the buyer's name when the email has no account yet."),
      },
      outputSchema: {
        url: z.string(),
        checkout_id: z.string(),
        plan: z.object({ id: z.string(), name: z.string(), price: z.string(), currency: z.string(), trial_days: z.number().nullable() }),
        expires_at: z.number(),
      },
      annotations: { title: "Checkout link for a plan", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, ctx: McpContext) => {
      const member = ctx.caller.kind === "member" ? { userId: ctx.caller.user.id } : null;
      if (!member && !args.email) return fail("email is required with an API key: whose checkout is it?");
      const started = await startCheckout({
        schoolId: ctx.school.id,
        input: { planId: args.plan_id, email: member ? null : args.email, name: member ? null : args.name },
        member,
        origin: ctx.origin,
        now: ctx.now(),
      });
      if (!started.record) return fail(started.errors[0]!);
      const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: started.record.checkoutId } });
      const plan = await db().membershipPlan.findUniqueOrThrow({ where: { id: checkout.planId! } });
      const structured = {
        url: started.record.url,
        checkout_id: checkout.id,
        plan: { id: plan.id, name: plan.name, price: checkout.amount.toFixed(2), currency: checkout.currency, trial_days: checkout.trialDays },
        expires_at: Math.floor(checkout.expiresAt.getTime() / 1000),
      };
      const trial = checkout.trialDays ? `, ${checkout.trialDays} days free first` : "";
      return ok(structured, `Open this link to pay for ${plan.name} (${structured.plan.price} ${checkout.currency}${trial}); the card is entered there, never here: ${started.record.url}`);
    },
  );
}
