import { memberApps } from "@/lib/account/queries";
import { now } from "@/lib/clock";
import { AccountButton, AccountShell, CookiesNeeded, accountMetadata, accountPage, formatDateTime, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Connected apps");

export default async function AppsPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member, csrfToken } = await accountPage("/account/apps", one(params.cookie_check) === "1");
  const apps = await memberApps({ ...member, now: now() });
  return (
    <AccountShell current="apps" title="Connected apps" params={params}>
      {!csrfToken ? <CookiesNeeded /> : null}
      {apps.length === 0 ? (
        <p>No app is connected to your account at this school.</p>
      ) : (
        <ul className="account-items">
          {apps.map((app) => (
            <li key={app.clientId} className="card">
              <h2>{app.clientName}</h2>
              {app.clientHost ? <p className="meta">Its description is published by {app.clientHost}.</p> : null}
              <p>It can:</p>
              <ul>
                {app.scopes.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
              <p className="meta">
                Connected {formatDateTime(app.firstUsedAt)} · last used {formatDateTime(app.lastUsedAt)}
              </p>
              {csrfToken ? (
                <AccountButton action="revoke-app" csrfToken={csrfToken} name="client" value={app.clientId}>
                  Disconnect {app.clientName}
                </AccountButton>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </AccountShell>
  );
}
