import { authSecret } from "../auth/auth-secret";
import { changeMemberEmail } from "../auth/change-email";
import { changeMemberPassword } from "../auth/change-password";
import { csrfTokenFromCookies } from "../auth/csrf";
import { endOwnSessions } from "../auth/end-own-sessions";
import { now as clockNow } from "../clock";
import { htmlErrorPage, unavailablePage } from "../core/html-page";
import { isUuid } from "../core/ids";
import { safeEqual } from "../credentials/secret";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { updatePaymentMethod } from "../billing/update-payment-method";
import { cancelSubscription } from "../membership/cancel-subscription";
import { changeSubscriptionPlan } from "../billing/change-subscription-plan";
import { ALREADY_PAUSED, pauseSubscription } from "../membership/pause-subscription";
import { NOT_PAUSED, resumeSubscription } from "../membership/resume-subscription";
import { isCanceling, isLive } from "../membership/states";
import { NOT_CANCELING, undoCancellation } from "../membership/undo-cancellation";
import { revokeMemberGrant } from "../oauth/member-grants/revoke-member-grant";
import { ACCOUNT_PATH, accountAccess, accountForbiddenResponse, accountLoginPath } from "./access";
import { membershipErrorCode, paymentMethodOutcome } from "./messages";
import { memberActor, recordAudit, type AuditActor } from "../db/audit";
import { requestAuditFacts } from "../tenancy/request-context";

/** The account forms' address: POST /api/account/<action>. */
export const ACCOUNT_FORMS_PATH = "/api/account";
const MAX_FORM_BYTES = 8 * 1024;
const MAX_NAME_LENGTH = 200;

export const ACCOUNT_PAGES = {
  profile: ACCOUNT_PATH,
  memberships: `${ACCOUNT_PATH}/memberships`,
  payments: `${ACCOUNT_PATH}/payments`,
  courses: `${ACCOUNT_PATH}/courses`,
  apps: `${ACCOUNT_PATH}/apps`,
  sessions: `${ACCOUNT_PATH}/sessions`,
} as const;

interface Member {
  schoolId: string;
  userId: string;
  sessionId: string;
  origin: string;
  /** The audit log's actor: the member, their session, this request (lib/db/audit.ts). */
  actor: AuditActor;
}

type Outcome = { page: string; done: string } | { page: string; error: string } | "not_found";
type Action = (member: Member, form: URLSearchParams, now: Date) => Promise<Outcome>;

const field = (form: URLSearchParams, name: string) => form.get(name) ?? "";

type SubscriptionVerb = (options: { schoolId: string; input: { id: string }; now: Date; actor: AuditActor }) => Promise<{ errors: string[] }>;

/**
 * A form running one membership verb on the member's own subscription (pause, resume), where the
 * verb's refusal `already` means a second submit found the work done: it says `done`, as keep does.
 * Any other refusal is the verb's own message (the Admin API's).
 */
function secondSubmitIsDone(verb: SubscriptionVerb, already: string, done: string): Action {
  return async (m, form, now) => {
    const sub = await ownSubscription(m, field(form, "subscription"));
    if (!sub) return "not_found";
    const { errors } = await verb({ schoolId: m.schoolId, input: { id: sub.id }, now, actor: m.actor });
    if (errors.length && errors[0] !== already) return { page: ACCOUNT_PAGES.memberships, error: membershipErrorCode(errors[0]!) };
    return { page: ACCOUNT_PAGES.memberships, done };
  };
}

/**
 * The account forms, one per action. Each acts only on the signed-in member's own rows at the
 * host's school: an id that is not theirs is a 404 (never a hint that it exists), and each is safe
 * to submit twice (the second submit finds the work done and says so).
 */
export const ACCOUNT_ACTIONS: Record<string, Action> = {
  profile: async (m, form, now) => {
    const name = field(form, "name").trim().replace(/\s+/g, " ");
    if (!name || name.length > MAX_NAME_LENGTH) return { page: ACCOUNT_PAGES.profile, error: "name" };
    await db().$transaction(async (tx) => {
      const before = await tx.user.findUniqueOrThrow({ where: { id: m.userId }, select: { name: true } });
      if (before.name === name) return;
      await tx.user.update({ where: { id: m.userId }, data: { name } });
      await recordAudit(tx, { actor: m.actor, now, entry: { schoolId: m.schoolId, action: "member.update_profile", target: { type: "member", id: m.userId }, summary: { name: { from: before.name, to: name } } } });
    });
    return { page: ACCOUNT_PAGES.profile, done: "name" };
  },
  email: async (m, form, now) => {
    const result = await changeMemberEmail({ schoolId: m.schoolId, userId: m.userId, current: field(form, "current"), email: field(form, "email").slice(0, 1024), now, actor: m.actor });
    return result.ok ? { page: ACCOUNT_PAGES.profile, done: "email" } : { page: ACCOUNT_PAGES.profile, error: result.reason };
  },
  password: async (m, form, now) => {
    const result = await changeMemberPassword({
      schoolId: m.schoolId,
      userId: m.userId,
      keepSessionId: m.sessionId,
      current: field(form, "current"),
      password: field(form, "password"),
      confirm: field(form, "confirm"),
      now,
      actor: m.actor,
    });
    return result.ok ? { page: ACCOUNT_PAGES.profile, done: "password" } : { page: ACCOUNT_PAGES.profile, error: result.reason };
  },
  cancel: async (m, form, now) => {
    const sub = await ownSubscription(m, field(form, "subscription"));
    if (!sub) return "not_found";
    const { errors } = await cancelSubscription({ schoolId: m.schoolId, input: { id: sub.id, cancelAtPeriodEnd: true }, now, keepScheduled: true, actor: m.actor });
    if (errors.length) return { page: ACCOUNT_PAGES.memberships, error: membershipErrorCode(errors[0]!) };
    return { page: ACCOUNT_PAGES.memberships, done: "canceling" };
  },
  keep: async (m, form, now) => {
    const sub = await ownSubscription(m, field(form, "subscription"));
    if (!sub) return "not_found";
    const { errors } = await undoCancellation({ schoolId: m.schoolId, input: { id: sub.id }, now, actor: m.actor });
    if (errors[0] === NOT_CANCELING) {
      // A second submit: the first one already kept it.
      const fresh = await db().subscription.findUnique({ where: { id: sub.id }, select: { state: true, cancelAt: true } });
      if (fresh && isLive(fresh.state) && !isCanceling(fresh)) return { page: ACCOUNT_PAGES.memberships, done: "kept" };
    }
    if (errors.length) return { page: ACCOUNT_PAGES.memberships, error: membershipErrorCode(errors[0]!) };
    return { page: ACCOUNT_PAGES.memberships, done: "kept" };
  },
  // Pause, resume and change plan: the Admin API's verbs and messages.
  pause: secondSubmitIsDone(pauseSubscription, ALREADY_PAUSED, "paused"),
  resume: secondSubmitIsDone(resumeSubscription, NOT_PAUSED, "resumed"),
  "change-plan": async (m, form, now) => {
    const sub = await ownSubscription(m, field(form, "subscription"));
    if (!sub) return "not_found";
    const planId = field(form, "plan").slice(0, 64);
    const { errors, record } = await changeSubscriptionPlan({ schoolId: m.schoolId, input: { id: sub.id, planId }, now, openOnly: true, actor: m.actor });
    // Not a rule's message: the provider's refusal of the card.
    if (errors.length) return { page: ACCOUNT_PAGES.memberships, error: membershipErrorCode(errors[0]!, "payment_refused") };
    const done = planId === sub.planId ? "plan_kept" : record!.planId === planId ? "plan_changed" : "plan_scheduled";
    return { page: ACCOUNT_PAGES.memberships, done };
  },
  "payment-method": async (m, form, now) => {
    const sub = await ownSubscription(m, field(form, "subscription"));
    if (!sub) return "not_found";
    const result = await updatePaymentMethod({ schoolId: m.schoolId, input: { id: sub.id, paymentMethod: field(form, "card").slice(0, 1024) }, now, actor: m.actor });
    return { page: ACCOUNT_PAGES.memberships, ...paymentMethodOutcome(result) };
  },
  "revoke-app": async (m, form, now) => {
    const clientId = field(form, "client").slice(0, 2048);
    if (!clientId) return "not_found";
    // Only a client this member has authorized here (live or already revoked: a second submit).
    const known = await db().oAuthGrant.findFirst({ where: { schoolId: m.schoolId, userId: m.userId, clientId }, select: { id: true } });
    if (!known) return "not_found";
    await revokeMemberGrant({ db: db(), schoolId: m.schoolId, userId: m.userId, clientId, now, actor: m.actor });
    return { page: ACCOUNT_PAGES.apps, done: "revoked" };
  },
  "end-session": async (m, form, now) => {
    const ended = await endOwnSessions({ schoolId: m.schoolId, actor: m.actor, userId: m.userId, origin: m.origin, currentSessionId: m.sessionId, target: { sessionId: field(form, "session") }, now });
    return ended ? { page: ACCOUNT_PAGES.sessions, done: "session_ended" } : "not_found";
  },
  "end-other-sessions": async (m, _form, now) => {
    await endOwnSessions({ schoolId: m.schoolId, actor: m.actor, userId: m.userId, origin: m.origin, currentSessionId: m.sessionId, target: "all_others", now });
    return { page: ACCOUNT_PAGES.sessions, done: "others_ended" };
  },
};

async function ownSubscription(m: Member, id: string) {
  if (!isUuid(id)) return null;
  return db().subscription.findFirst({ where: { id, schoolId: m.schoolId, userId: m.userId }, select: { id: true, planId: true } });
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });

const notFound = () => htmlErrorPage(404, "Not found", "There is nothing of yours with that id on this account. Nothing was changed.");

/**
 * POST /api/account/<action>: form body, the session cookie and the CSRF double-submit token
 * (lib/auth/csrf.ts: the hidden `csrfToken` must match the signed cookie). Answers 303 back to the
 * page with a `done` or `error` code; the login page when signed out; 403 for an account that is
 * not a member of this school; 404 for an unknown action or an id that is not the member's.
 */
export async function handleAccountPost(request: Request): Promise<Response> {
  const action = new URL(request.url).pathname.slice(ACCOUNT_FORMS_PATH.length + 1);
  if (!Object.hasOwn(ACCOUNT_ACTIONS, action)) return notFound();
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return htmlErrorPage(415, "Unsupported form", "Send the form as application/x-www-form-urlencoded.");
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBodyText(request, MAX_FORM_BYTES));
  } catch (err) {
    if (err instanceof BodyTooLargeError) return htmlErrorPage(413, "Request too large", "The form is larger than 8 KiB.", { ...REFUSED_BODY_HEADERS });
    if (err instanceof BodyEncodingError) return htmlErrorPage(400, "Invalid request", err.message);
    throw err;
  }
  for (const [k, v] of form) if (hasNul(k) || hasNul(v)) return htmlErrorPage(400, "Invalid request", "The form must not contain the NUL character.");
  try {
    const access = await accountAccess(request);
    if (access.kind === "no_school") return notFound();
    if (access.kind === "anonymous") return seeOther(accountLoginPath(ACCOUNT_PATH));
    if (access.kind === "not_member") return accountForbiddenResponse({ schoolName: access.school.name, email: access.session.email, path: ACCOUNT_PATH });
    const expected = csrfTokenFromCookies(request.headers.get("cookie"), authSecret());
    if (!expected || !safeEqual(field(form, "csrfToken"), expected)) {
      return htmlErrorPage(403, "Form expired", "This form expired or did not come from this site. Nothing was changed: go back, reload the page and try again.");
    }
    const { session } = access;
    const actor = memberActor(session, requestAuditFacts(request));
    const member = { schoolId: access.school.id, userId: session.userId, sessionId: session.sessionId, origin: access.origin, actor };
    const outcome = await ACCOUNT_ACTIONS[action]!(member, form, clockNow());
    if (outcome === "not_found") return notFound();
    const query = "done" in outcome ? `done=${outcome.done}` : `error=${outcome.error}`;
    return seeOther(`${outcome.page}?${query}`);
  } catch (err) {
    if (asDatabaseUnavailable(err)) return unavailablePage();
    throw err;
  }
}
