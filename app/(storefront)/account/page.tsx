import { memberProfile } from "@/lib/account/queries";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-setup";
import { AccountForm, AccountShell, CookiesNeeded, accountMetadata, accountPage, one, type Search } from "./_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Profile");

export default async function ProfilePage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member, csrfToken } = await accountPage("/account", one(params.cookie_check) === "1");
  const profile = await memberProfile(member);
  return (
    <AccountShell current="profile" title="Your account" params={params}>
      {!csrfToken ? <CookiesNeeded /> : null}
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <AccountForm action="profile" csrfToken={csrfToken}>
          <label>
            Name
            <input type="text" name="name" autoComplete="name" defaultValue={profile.name} maxLength={200} required />
          </label>
          <div>
            <button className="button" type="submit">
              Save name
            </button>
          </div>
        </AccountForm>
      </section>
      <section aria-labelledby="email-heading">
        <h2 id="email-heading">Email</h2>
        <AccountForm action="email" csrfToken={csrfToken}>
          <label>
            Email
            <input type="email" name="email" autoComplete="email" defaultValue={profile.email} maxLength={254} required aria-describedby="email-note" />
          </label>
          <p id="email-note" className="meta">
            Your email is your sign-in name at every school on this platform. A new one must be confirmed with the link we mail to it.
          </p>
          <label>
            Your password
            <input type="password" name="current" autoComplete="current-password" required aria-describedby="email-password-note" />
          </label>
          <p id="email-password-note" className="meta">
            Your current password, to confirm it is you.
          </p>
          <div>
            <button className="button" type="submit">
              Change email
            </button>
          </div>
        </AccountForm>
      </section>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <AccountForm action="password" csrfToken={csrfToken}>
          <input type="email" name="username" value={profile.email} autoComplete="username" readOnly hidden />
          <label>
            Current password
            <input type="password" name="current" autoComplete="current-password" required />
          </label>
          <label>
            New password
            <input type="password" name="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required aria-describedby="password-note" />
          </label>
          <label>
            Repeat the new password
            <input type="password" name="confirm" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
          </label>
          <p id="password-note" className="meta">
            At least {MIN_PASSWORD_LENGTH} characters. Changing it signs you out everywhere else.
          </p>
          <div>
            <button className="button" type="submit">
              Change password
            </button>
          </div>
        </AccountForm>
      </section>
    </AccountShell>
  );
}
