import Link from "next/link";
import { memberSubscriptions, testCardsOf } from "@/lib/account/queries";
import { now } from "@/lib/clock";
import { PaymentMethodForm } from "./payment-method-form";
import { AccountForm, AccountShell, CookiesNeeded, accountMetadata, accountPage, formatDate, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Memberships");

const STATE_LABELS: Record<string, string> = {
  active: "Active",
  trialing: "Trial",
  past_due: "Payment overdue",
  incomplete: "Awaiting first payment",
  incomplete_expired: "Never started",
  canceled: "Cancelled",
  expired: "Ended",
};

type Sub = Awaited<ReturnType<typeof memberSubscriptions>>[number];

/**
 * One subscription's actions. Each is a small form posting to its own account action, so further
 * verbs join as one more entry here and one in lib/account/forms.ts.
 */
function SubscriptionActions({ sub, csrfToken }: { sub: Sub; csrfToken: string }) {
  const actions: { action: string; label: string; note: string }[] = [];
  if (sub.canCancel) actions.push({ action: "cancel", label: `Cancel ${sub.planName} at period end`, note: "You keep access until the end of the current period." });
  if (sub.canKeep) actions.push({ action: "keep", label: `Keep ${sub.planName}`, note: `Undo the cancellation before ${formatDate(sub.cancelAt)}.` });
  if (sub.canPause) actions.push({ action: "pause", label: `Pause ${sub.planName}`, note: "No charges and no access until you resume; the time paused is added to your period." });
  if (sub.canResume) actions.push({ action: "resume", label: `Resume ${sub.planName}`, note: "Access again; your period end moves by the time paused." });
  if ((!actions.length && !sub.planChoices.length) || !csrfToken) return null;
  return (
    <div className="stack">
      {actions.map((a) => (
        <AccountForm key={a.action} action={a.action} csrfToken={csrfToken}>
          <input type="hidden" name="subscription" value={sub.id} />
          <p className="meta">{a.note}</p>
          <div>
            <button className={a.action === "cancel" ? "button secondary" : "button"} type="submit">
              {a.label}
            </button>
          </div>
        </AccountForm>
      ))}
      {sub.planChoices.length ? <ChangePlanForm sub={sub} csrfToken={csrfToken} /> : null}
    </div>
  );
}

/** Change plan: a dearer one now with a prorated charge, a cheaper one at the period end (changeSubscriptionPlan). */
function ChangePlanForm({ sub, csrfToken }: { sub: Sub; csrfToken: string }) {
  const id = `plan-${sub.id}`;
  return (
    <AccountForm action="change-plan" csrfToken={csrfToken}>
      <input type="hidden" name="subscription" value={sub.id} />
      <label htmlFor={id}>New plan for {sub.planName}</label>
      <select id={id} name="plan" required>
        {sub.planChoices.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      <p className="meta">A higher price starts now: you pay the difference for the rest of this period. A lower price starts at the end of this period.</p>
      <div>
        <button className="button secondary" type="submit">
          Change plan
        </button>
      </div>
    </AccountForm>
  );
}

export default async function MembershipsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member, csrfToken } = await accountPage("/account/memberships", one(params.cookie_check) === "1");
  const subs = await memberSubscriptions({ ...member, now: now() });
  const testCards = subs.some((s) => s.canUpdatePaymentMethod) ? await testCardsOf(member.schoolId) : null;
  return (
    <AccountShell current="memberships" title="Memberships" params={params}>
      {!csrfToken ? <CookiesNeeded /> : null}
      {subs.length === 0 ? (
        <p>
          You have no membership at this school yet. <Link href="/">See the plans</Link>.
        </p>
      ) : (
        <ul className="account-items">
          {subs.map((s) => (
            <li key={s.id} className="card">
              <h2>{s.planName}</h2>
              <dl className="facts">
                <dt>State</dt>
                <dd>
                  {s.paused ? "Paused" : (STATE_LABELS[s.state] ?? s.state)}
                  {s.canceling ? `, ends ${formatDate(s.cancelAt)}` : ""}
                </dd>
                <dt>Plan</dt>
                <dd>{s.planType === "lifetime" ? "Lifetime" : s.planType === "recurring" ? `${s.price} ${s.currency}, recurring` : `${s.price} ${s.currency}`}</dd>
                <dt>Current period</dt>
                <dd>{s.currentPeriodStart ? `${formatDate(s.currentPeriodStart)} – ${formatDate(s.currentPeriodEnd ?? s.endAt)}` : "—"}</dd>
                <dt>Next charge</dt>
                <dd>{s.nextChargeDate ? formatDate(s.nextChargeDate) : "None"}</dd>
                {s.scheduledPlanName ? (
                  <>
                    <dt>Scheduled change</dt>
                    <dd>
                      {s.scheduledPlanName} from {formatDate(s.currentPeriodEnd)}
                    </dd>
                  </>
                ) : null}
              </dl>
              <SubscriptionActions sub={s} csrfToken={csrfToken} />
              {s.canUpdatePaymentMethod && csrfToken ? <PaymentMethodForm sub={s} csrfToken={csrfToken} testCards={testCards} /> : null}
            </li>
          ))}
        </ul>
      )}
    </AccountShell>
  );
}
