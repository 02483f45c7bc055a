import { z } from "zod";
import { versionedCheckoutItem } from "../../billing/checkout-item-cache";
import { CHECKOUT_ONE_ITEM, checkoutItemRef, checkoutMessages, findCheckoutItem } from "../../billing/checkout-rules";
import { startCheckout, type StartCheckoutInput } from "../../billing/start-checkout";
import { SLUG } from "../../content/schemas";
import { SLUG_MAX_LENGTH } from "../../storefront/routes";
import { db } from "../../db/client";
import type { McpContext } from "../context";
import { fail, ok, untrusted } from "../results";
import type { ToolRegistrar } from "../tool-registrar";

/** Each kind of item as the result names it, and its slug argument. */
const SLUG_ARGS = { course: "course_slug", download: "download_slug" } as const;
const slugArg = (what: string) =>
  z
    .string()
    .min(1)
    .max(SLUG_MAX_LENGTH)
    .regex(SLUG)
    .optional()
    .describe(`A paid ${what}'s slug, as search_catalog and get_page give it (lower-case letters, digits and single hyphens). Name exactly one of plan_id, course_slug, download_slug.`);

/**
 * create_checkout_link: the provider's hosted checkout for a plan, a paid course or a paid digital
 * download, for the signed-in member (OAuth token) or for an email (Admin API key), so an assistant
 * can help someone join or buy without ever handling card data: the card is typed on the payment
 * page only, and nothing is bought until it is paid there. The same startCheckout as the storefront's
 * review pages (/checkout/plans|courses|digital-downloads/<slug>), so the same refusals: not found,
 * closed, free (taken from its page instead), already owned, the enterprise-training gate. The server
 * is stateless (no session, no server-to-client requests), so the link is returned in the result
 * (docs/decisions.md, "Billing", "Checkout").
 */
export function registerCheckoutTools(tool: ToolRegistrar<"create_checkout_link">) {
  tool(
    "create_checkout_link",
    {
      title: "Checkout link for a plan, a course or a download",
      description:
        "Starts buying a membership plan, a paid course or a paid digital download and returns the payment page's URL for the person to open in their browser (they type their card there; it never passes through this tool). " +
        "Name exactly one item: plan_id (list_membership_plans), course_slug or download_slug (search_catalog). A course or download is paid once (an enrollment, or the download's file on the buyer's account page). " +
        "With a member's token: for that member. With an API key: for `email` (and `name` for a new account). Price and currency are the item's; no tax, no coupons. The link is good for 24 hours. " +
        "Free items, items already owned and, at a members-only school, non-members are refused with the storefront's words.",
      inputSchema: {
        plan_id: z.string().min(1).max(64).optional().describe("The plan's id (list_membership_plans). Name exactly one of plan_id, course_slug, download_slug."),
        course_slug: slugArg("course"),
        download_slug: slugArg("digital download"),
        email: z.string().max(320).optional().describe("API keys only: who buys (a new account is made on payment)."),
        name: z.string().max(200).optional().describe("API keys only: the buyer's name when the email has no account yet."),
      },
      outputSchema: {
        url: z.string().describe("The payment page: open it in a browser."),
        checkout_id: z.string().describe("The checkout's id."),
        item: z
          .object({
            kind: z.enum(["plan", "course", "download"]),
            id: z.string(),
            slug: z.string(),
            name: z.string(),
            price: z.string(),
            currency: z.string(),
          })
          .describe("What is bought, at the price and in the currency charged."),
        plan: z
          .object({ id: z.string(), name: z.string(), price: z.string(), currency: z.string(), trial_days: z.number().nullable() })
          .optional()
          .describe("For a plan only: the plan and its trial."),
        expires_at: z.number().describe("When the link stops working, Unix seconds."),
      },
      annotations: { title: "Checkout link for a plan, a course or a download", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args, ctx: McpContext) => {
      const member = ctx.caller.kind === "member" ? { userId: ctx.caller.user.id } : null;
      const named = [args.plan_id && "plan", args.course_slug && "course", args.download_slug && "download"].filter(Boolean);
      if (named.length !== 1) return fail(CHECKOUT_ONE_ITEM);
      if (!member && !args.email) return fail("email is required with an API key: whose checkout is it?");
      const now = ctx.now();
      const ref: Pick<StartCheckoutInput, "planId" | "courseId" | "downloadId"> = {};
      if (args.plan_id) ref.planId = args.plan_id;
      for (const kind of ["course", "download"] as const) {
        const slug = args[SLUG_ARGS[kind]];
        if (!slug) continue;
        // The storefront's review page finds an item by slug the same way (startCheckout rechecks it).
        const found = await versionedCheckoutItem({ schoolId: ctx.school.id, key: { kind, slug }, now });
        if (!found) return fail(checkoutMessages(kind).notFound);
        ref[kind === "course" ? "courseId" : "downloadId"] = found.item.id;
      }
      const started = await startCheckout({
        schoolId: ctx.school.id,
        input: { ...ref, email: member ? null : args.email, name: member ? null : args.name },
        member,
        origin: ctx.origin,
        now,
      });
      if (!started.record) return fail(started.errors[0]!);
      const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: started.record.checkoutId } });
      const item = (await findCheckoutItem(db(), { schoolId: ctx.school.id, ref: checkoutItemRef(checkout), now }))!;
      const structured = {
        url: started.record.url,
        checkout_id: checkout.id,
        item: { kind: item.kind, id: item.id, slug: item.slug, name: item.name, price: checkout.amount.toFixed(2), currency: checkout.currency },
        ...(item.plan ? { plan: { id: item.id, name: item.name, price: checkout.amount.toFixed(2), currency: checkout.currency, trial_days: checkout.trialDays } } : {}),
        expires_at: Math.floor(checkout.expiresAt.getTime() / 1000),
      };
      const trial = checkout.trialDays ? `, ${checkout.trialDays} days free first` : "";
      const once = item.kind === "plan" ? "" : ", paid once";
      return ok(structured, `Open this link to pay for ${untrusted(item.name)} (${structured.item.price} ${checkout.currency}${trial}${once}); the card is entered there, never here: ${started.record.url}`);
    },
  );
}
