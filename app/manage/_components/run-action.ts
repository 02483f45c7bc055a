import { headers } from "next/headers";
import { forbidden, notFound, redirect } from "next/navigation";
import { now as clockNow } from "@/lib/clock";
import { consoleAccess, consoleLoginPath, type ConsoleStaff } from "@/lib/console/access";
import { isSameOriginPost, runConsoleForm, type ConsoleNotice } from "@/lib/console/form-guard";
import type { ConsolePermission } from "@/lib/console/permissions";
import { requireStepUp, STEP_UP_FIELD, STEP_UP_MESSAGES } from "@/lib/console/step-up";
import { clientAddress } from "@/lib/tenancy/request-context";

export interface ActionContext {
  staff: ConsoleStaff;
  now: Date;
  form: FormData;
  field: (name: string) => string;
}

/**
 * The frame of every console server action: the same access check as the page (login, 404, 403),
 * the same-origin check, the step-up when the action asks for it, then the action once per form
 * token; it ends in a redirect to `page` (never a path from the form) with the stored notice.
 * `page` may be a function of the staff member, for pages whose path the action itself decides.
 */
export async function runAction(
  o: { form: FormData; action: string; permission: ConsolePermission; page: string; stepUp?: boolean },
  execute: (ctx: ActionContext) => Promise<ConsoleNotice>,
): Promise<never> {
  const h = await headers();
  const access = await consoleAccess({ headers: h });
  if (access.kind === "no_school") notFound();
  if (access.kind === "anonymous") redirect(consoleLoginPath(o.page));
  if (access.kind !== "staff" || !access.permissions.has(o.permission)) forbidden();
  if (!isSameOriginPost(h, access.origin)) redirect(`${o.page}?refused=crossSite`);
  const now = clockNow();
  const field = (name: string) => {
    const v = o.form.get(name);
    return typeof v === "string" ? v : "";
  };
  const result = await runConsoleForm({ staff: access, action: o.action, form: o.form, now }, async () => {
    if (o.stepUp) {
      const step = await requireStepUp({ staff: access, password: field(STEP_UP_FIELD) || null, address: clientAddress({ headers: h }), now });
      if (!step.ok) return { kind: "error", text: STEP_UP_MESSAGES[step.reason] };
    }
    return execute({ staff: access, now, form: o.form, field });
  });
  if ("refused" in result) redirect(`${o.page}?refused=${result.refused}`);
  redirect(`${o.page}?notice=${result.token}`);
}
