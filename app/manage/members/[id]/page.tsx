import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { now } from "@/lib/clock";
import { memberView, type MemberView } from "@/lib/console/members";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { ButtonForm, ConsoleForm, ConsoleShell, SelectField, StepUpField, SubmitButton, consoleMetadata, consolePage, formatDate, formatDateTime, pageNotice, type Search } from "../../_components/console";
import { CardList, ConsoleSection } from "../../_components/lists";
import type { ConsoleStaff } from "@/lib/console/access";
import { memberAction } from "./actions";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Member");

const PATH = `${CONSOLE_PATH}/members`;

const isoDate = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : "");

/** A one-button form of a member action. */
function Button(props: { memberId: string; action: string; label: string; fields?: Record<string, string>; secondary?: boolean; children?: ReactNode }) {
  return (
    <ButtonForm action={memberAction.bind(null, props.memberId, props.action)} label={props.label} fields={props.fields} secondary={props.secondary}>
      {props.children}
    </ButtonForm>
  );
}

function Subscriptions({ view, staff }: { view: MemberView; staff: ConsoleStaff }) {
  const id = view.member.id;
  const write = staff.permissions.has("members:write");
  return (
    <section aria-labelledby="subscriptions-heading">
      <h2 id="subscriptions-heading">Subscriptions</h2>
      {view.subscriptions.length === 0 ? <p>No subscriptions.</p> : null}
      <ul className="account-items">
        {view.subscriptions.map((s) => (
          <li key={s.id} className="card">
            <h3>{s.planName}</h3>
            <p className="meta">
              {s.state.replace(/_/g, " ")}
              {s.paused ? " · paused" : ""}
              {s.canceling ? ` · ends ${formatDate(s.cancelAt)}` : ""} · period {formatDate(s.currentPeriodStart)} – {formatDate(s.currentPeriodEnd)}
              {s.endAt ? ` · access until ${formatDate(s.endAt)}` : ""}
              {s.scheduledPlanName ? ` · moves to ${s.scheduledPlanName} on ${formatDate(s.currentPeriodEnd)}` : ""}
            </p>
            {write ? (
              <div className="console-actions">
                {s.canMovePeriod ? (
                  <ConsoleForm action={memberAction.bind(null, id, "update-period")} label={`Change the period of ${s.planName}`}>
                    <input type="hidden" name="subscription" value={s.id} />
                    <label>
                      Current period ends on
                      <input type="date" name="currentPeriodEnd" defaultValue={isoDate(s.currentPeriodEnd)} required />
                    </label>
                    <div>
                      <button className="button secondary" type="submit">
                        Change period
                      </button>
                    </div>
                  </ConsoleForm>
                ) : null}
                {s.planChoices.length > 0 ? (
                  <ConsoleForm action={memberAction.bind(null, id, "change-plan")} label={`Change the plan of ${s.planName}`}>
                    <input type="hidden" name="subscription" value={s.id} />
                    <label>
                      New plan
                      <select name="plan" required aria-describedby={`change-plan-${s.id}-note`}>
                        {s.planChoices.map((p) => (
                          <option key={p.id} value={p.id}>
                            {p.label}
                          </option>
                        ))}
                      </select>
                    </label>
                    <p id={`change-plan-${s.id}-note`} className="meta">
                      A dearer plan starts now and, for a card on file, charges the difference for the rest of the period; a cheaper one starts at the period end.
                    </p>
                    <div>
                      <button className="button secondary" type="submit">
                        Change plan
                      </button>
                    </div>
                  </ConsoleForm>
                ) : null}
                {s.canCancel ? <Button memberId={id} action="cancel-at-period-end" label={`Cancel ${s.planName} at period end`} fields={{ subscription: s.id }} secondary /> : null}
                {s.canCancel || s.canceling ? <Button memberId={id} action="cancel-now" label={`Cancel ${s.planName} now`} fields={{ subscription: s.id }} secondary /> : null}
                {s.canUndo ? <Button memberId={id} action="undo-cancellation" label={`Undo the cancellation of ${s.planName}`} fields={{ subscription: s.id }} secondary /> : null}
                {s.canPause ? <Button memberId={id} action="pause" label={`Pause ${s.planName}`} fields={{ subscription: s.id }} secondary /> : null}
                {s.canResume ? <Button memberId={id} action="resume" label={`Resume ${s.planName}`} fields={{ subscription: s.id }} secondary /> : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {write && view.plans.length > 0 ? (
        <ConsoleForm action={memberAction.bind(null, id, "create-subscription")} label="Create a subscription">
          <h3>Create a subscription</h3>
          <label>
            Plan
            <select name="plan" required>
              {view.plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.status !== "published" ? ` (${p.status})` : ""}
                </option>
              ))}
            </select>
          </label>
          <label>
            Access until (only for plans without their own end)
            <input type="date" name="expireAt" />
          </label>
          <div>
            <button className="button" type="submit">
              Create subscription
            </button>
          </div>
        </ConsoleForm>
      ) : null}
    </section>
  );
}

function Payments({ view, staff }: { view: MemberView; staff: ConsoleStaff }) {
  const refund = staff.permissions.has("money:refund");
  return (
    <ConsoleSection id="payments-heading" title="Payments">
      <CardList
        items={view.payments}
        itemKey={(p) => p.id}
        empty="No payments."
        card={(p) => (
          <>
            <h3>
              {p.amount} {p.currency} · {p.planName}
            </h3>
            <p className="meta">
              {p.state} · {formatDateTime(p.at)} · {p.provider}
              {p.refunded !== "0.00" ? ` · refunded ${p.refunded}` : ""}
              {p.failure ? ` · ${p.failure}` : ""}
            </p>
            {refund && p.canRefund ? (
              <ConsoleForm action={memberAction.bind(null, view.member.id, "refund")} label={`Refund the payment of ${p.amount} ${p.currency}`}>
                <input type="hidden" name="payment" value={p.id} />
                <label>
                  Amount to refund (empty: all that is left)
                  <input type="text" name="amount" inputMode="decimal" pattern="\d{1,10}(\.\d{1,2})?" maxLength={13} />
                </label>
                <StepUpField staff={staff} id={`refund-${p.id}`} />
                <SubmitButton label={`Refund ${p.amount} ${p.currency}`} secondary row />
              </ConsoleForm>
            ) : null}
          </>
        )}
      />
    </ConsoleSection>
  );
}

export default async function MemberPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const query = await searchParams;
  const staff = await consolePage(PATH, "members:read");
  const view = await memberView({ staff, memberId: id, now: now() });
  if (!view) notFound();
  const { member } = view;
  const write = staff.permissions.has("members:write");
  return (
    <ConsoleShell staff={staff} current={PATH} title={member.name || member.email} notice={await pageNotice(staff, query)}>
      <p>
        <a href={PATH}>All members</a>
      </p>
      <dl className="facts">
        <div>
          <dt>Email</dt>
          <dd>
            {member.email} {member.emailVerified ? "(verified)" : "(not verified)"}
          </dd>
        </div>
        <div>
          <dt>Roles</dt>
          <dd>{member.roles.join(", ") || "—"}</dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatDate(member.joinedAt)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{member.disabledAt ? `Disabled since ${formatDateTime(member.disabledAt)}` : "Enabled"}</dd>
        </div>
      </dl>
      {write ? (
        <div className="console-actions">
          <Button memberId={member.id} action="send-password-link" label="Send a password link" secondary />
          {!member.emailVerified ? <Button memberId={member.id} action="send-verification-link" label="Send a verification link" secondary /> : null}
          {member.disabledAt ? (
            <Button memberId={member.id} action="enable" label="Enable this member" secondary />
          ) : member.id !== staff.session.userId ? (
            <Button memberId={member.id} action="disable" label="Disable this member" secondary />
          ) : null}
        </div>
      ) : null}
      <Subscriptions view={view} staff={staff} />
      <Payments view={view} staff={staff} />
      <ConsoleSection id="enrollments-heading" title="Enrollments">
        {view.enrollments.length === 0 ? <p>Not enrolled in any course.</p> : null}
        <ul>
          {view.enrollments.map((e) => (
            <li key={e.id}>
              {e.title} <span className="meta">since {formatDate(e.at)}</span>
            </li>
          ))}
        </ul>
        {write && view.coursesToEnroll.length > 0 ? (
          <ConsoleForm action={memberAction.bind(null, member.id, "enroll")} label="Enroll in a course">
            <SelectField label="Course" name="course" required options={view.coursesToEnroll.map((c) => ({ value: c.id, label: c.title }))} />
            <SubmitButton label="Enroll" row />
          </ConsoleForm>
        ) : null}
      </ConsoleSection>
      <ConsoleSection id="sessions-heading" title="Sessions">
        {view.sessions.length === 0 ? <p>Not signed in anywhere at this school.</p> : null}
        <ul>
          {view.sessions.map((s) => (
            <li key={s.id}>
              {new URL(s.origin).host} · signed in {formatDateTime(s.createdAt)} · last seen {formatDateTime(s.lastSeenAt)}
            </li>
          ))}
        </ul>
      </ConsoleSection>
      <ConsoleSection id="apps-heading" title="Connected apps">
        {view.apps.length === 0 ? <p>No connected apps.</p> : null}
        <ul>
          {view.apps.map((a) => (
            <li key={a.clientId}>
              {a.clientName} <span className="meta">· {a.scope} · last used {formatDateTime(a.lastUsedAt)}</span>
            </li>
          ))}
        </ul>
      </ConsoleSection>
    </ConsoleShell>
  );
}
