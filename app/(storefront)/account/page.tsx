import { memberProfile } from "@/lib/account/queries";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password-setup";
import { AccountField, AccountForm, AccountShell, CookiesNeeded, SubmitButton, accountMetadata, accountPage, one, type Search } from "./_components/account";

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
          <AccountField label="Name" type="text" name="name" autoComplete="name" defaultValue={profile.name} maxLength={200} required />
          <SubmitButton>Save name</SubmitButton>
        </AccountForm>
      </section>
      <section aria-labelledby="email-heading">
        <h2 id="email-heading">Email</h2>
        <AccountForm action="email" csrfToken={csrfToken}>
          <AccountField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            defaultValue={profile.email}
            maxLength={254}
            required
            noteId="email-note"
            note="Your email is your sign-in name at every school on this platform. A new one must be confirmed with the link we mail to it."
          />
          <AccountField
            label="Your password"
            type="password"
            name="current"
            autoComplete="current-password"
            required
            noteId="email-password-note"
            note="Your current password, to confirm it is you."
          />
          <SubmitButton>Change email</SubmitButton>
        </AccountForm>
      </section>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <AccountForm action="password" csrfToken={csrfToken}>
          <input type="email" name="username" value={profile.email} autoComplete="username" readOnly hidden />
          <AccountField label="Current password" type="password" name="current" autoComplete="current-password" required />
          <AccountField
            label="New password"
            type="password"
            name="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            required
            noteId="password-note"
            note={`At least ${MIN_PASSWORD_LENGTH} characters. Changing it signs you out everywhere else.`}
          />
          <AccountField label="Repeat the new password" type="password" name="confirm" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
          <SubmitButton>Change password</SubmitButton>
        </AccountForm>
      </section>
    </AccountShell>
  );
}
