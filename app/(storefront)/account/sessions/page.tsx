import { memberSessions } from "@/lib/account/queries";
import { now } from "@/lib/clock";
import { AccountButton, AccountForm, AccountShell, CookiesNeeded, accountMetadata, accountPage, formatDateTime, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Sessions");

export default async function SessionsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { session, origin, csrfToken } = await accountPage("/account/sessions", one(params.cookie_check) === "1");
  const sessions = await memberSessions({ userId: session.userId, origin, currentSessionId: session.sessionId, now: now() });
  const others = sessions.filter((s) => !s.current);
  return (
    <AccountShell current="sessions" title="Sessions" params={params}>
      {!csrfToken ? <CookiesNeeded /> : null}
      <p>Where you are signed in on {new URL(origin).host}.</p>
      <ul className="account-items">
        {sessions.map((s) => (
          <li key={s.id} className="card">
            <h2>
              {s.device}
              {s.current ? " (this browser)" : ""}
            </h2>
            <p className="meta">
              Signed in {formatDateTime(s.createdAt)} · last seen {formatDateTime(s.lastSeenAt)}
            </p>
            {csrfToken ? (
              <AccountButton action="end-session" csrfToken={csrfToken} name="session" value={s.id}>
                {s.current ? "Sign out of this browser" : `Sign out of ${s.device}, last seen ${formatDateTime(s.lastSeenAt)}`}
              </AccountButton>
            ) : null}
          </li>
        ))}
      </ul>
      {others.length > 0 && csrfToken ? (
        <AccountForm action="end-other-sessions" csrfToken={csrfToken}>
          <div>
            <button className="button" type="submit">
              Sign out of every other session
            </button>
          </div>
        </AccountForm>
      ) : null}
    </AccountShell>
  );
}
