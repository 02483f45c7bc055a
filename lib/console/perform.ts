// The frame of every console server action, with no Next.js in it (app/manage/_components/run-action.ts
// turns its answer into redirect / forbidden / notFound): the same access check as the page, the
// same-origin check, the step-up when the action asks for it, then the action once per form token.
// It answers where to go next: back to the action's own page (never a path from the form) with the
// stored notice, or a refusal code.
import { findMember } from "../membership/find-member";
import { memberActor, type AuditActor } from "../db/audit";
import { clientAddress, requestAuditFacts } from "../tenancy/request-context";
import { consoleAccess, consoleLoginPath, type ConsoleStaff } from "./access";
import { isSameOriginPost } from "../http/same-origin";
import { isReadableForm, runConsoleForm, type ConsoleNotice } from "./form-guard";
import { isMemberActionName, MEMBER_ACTIONS } from "./member-actions";
import { CONSOLE_PATH } from "./nav";
import type { ConsolePermission } from "./permissions";
import { requireStepUp, STEP_UP_FIELD, STEP_UP_MESSAGES } from "./step-up";

export type ActionAnswer = { kind: "not_found" } | { kind: "forbidden" } | { kind: "redirect"; location: string };

export interface ConsoleActionContext {
  staff: ConsoleStaff;
  now: Date;
  form: FormData;
  field: (name: string) => string;
  address: string | null;
  /** The audit log's actor: the staff member, their session, this request. */
  actor: AuditActor;
}

export interface ConsoleActionOptions {
  headers: Headers;
  form: FormData;
  /** The action's name: part of what a form token is bound to. */
  action: string;
  permission: ConsolePermission;
  /** The page to come back to (the login page comes back here too). */
  page: string;
  /** A sensitive action: requireStepUp before anything else. */
  stepUp?: boolean;
  now: Date;
  /** More checks once access is known (the member of a member page): null to go on. */
  resolve?: (staff: ConsoleStaff) => Promise<ActionAnswer | null>;
}

const field = (form: FormData) => (name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.slice(0, 4096) : "";
};

/** Any console action: access, origin, once per form, step-up, then `execute`'s notice. */
export async function performConsoleAction(o: ConsoleActionOptions, execute: (c: ConsoleActionContext) => Promise<ConsoleNotice>): Promise<ActionAnswer> {
  const access = await consoleAccess({ headers: o.headers });
  if (access.kind === "no_school") return { kind: "not_found" };
  if (access.kind === "anonymous") return { kind: "redirect", location: consoleLoginPath(o.page) };
  if (access.kind !== "staff" || !access.permissions.has(o.permission)) return { kind: "forbidden" };
  const resolved = await o.resolve?.(access);
  if (resolved) return resolved;
  if (!isSameOriginPost(o.headers, access.origin)) return { kind: "redirect", location: `${o.page}?refused=crossSite` };
  if (!isReadableForm(o.form)) return { kind: "redirect", location: `${o.page}?refused=invalid` };
  const address = clientAddress({ headers: o.headers });
  const result = await runConsoleForm({ staff: access, action: o.action, form: o.form, now: o.now }, async () => {
    if (o.stepUp) {
      const step = await requireStepUp({ staff: access, password: field(o.form)(STEP_UP_FIELD) || null, address, now: o.now });
      if (!step.ok) return { kind: "error", text: STEP_UP_MESSAGES[step.reason] };
    }
    return execute({ staff: access, now: o.now, form: o.form, field: field(o.form), address, actor: memberActor(access.session, requestAuditFacts({ headers: o.headers })) });
  });
  if ("refused" in result) return { kind: "redirect", location: `${o.page}?refused=${result.refused}` };
  return { kind: "redirect", location: `${o.page}?notice=${result.token}` };
}

export const memberPagePath = (memberId: string) => `${CONSOLE_PATH}/members/${memberId}`;

/** One of the member page's actions (./member-actions.ts) on member `memberId` of the host's school. */
export async function performMemberAction(o: { headers: Headers; memberId: string; action: string; form: FormData; now: Date }): Promise<ActionAnswer> {
  if (!isMemberActionName(o.action)) return { kind: "not_found" };
  const action = MEMBER_ACTIONS[o.action];
  let member: { id: string; email: string } | null = null;
  return performConsoleAction(
    {
      headers: o.headers,
      form: o.form,
      action: `member:${o.action}`,
      permission: action.permission,
      page: memberPagePath(o.memberId),
      stepUp: "stepUp" in action && action.stepUp === true,
      now: o.now,
      resolve: async (staff) => {
        member = await findMember({ schoolId: staff.school.id, id: o.memberId });
        return member ? null : { kind: "not_found" };
      },
    },
    (c) => action.run({ staff: c.staff, member: member!, field: c.field, address: c.address, now: c.now, actor: c.actor }),
  );
}
