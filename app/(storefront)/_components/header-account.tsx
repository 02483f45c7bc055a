import { loginPath } from "@/lib/storefront/gate";

/**
 * The header's account corner for a visitor: a link to sign in that comes back to this page. The
 * page cache may keep it: it names nobody (docs/decisions.md, "Who is signed in, on cached pages").
 */
export function SignInLink({ returnTo }: { returnTo: string }) {
  return (
    <a className="site-account" href={loginPath(returnTo)}>
      Sign in
    </a>
  );
}

/**
 * The signed-in member's corner: their name opening a menu. A <details> element opens and closes
 * without client JavaScript, by keyboard (Enter/Space on the summary) and is announced as a
 * disclosure by screen readers. Sign out posts Auth.js's sign-out form (CSRF token) when the
 * token cookie is there, else goes through the sign-out page, which obtains one.
 */
export function MemberMenu({ name, csrfToken }: { name: string; csrfToken: string | null }) {
  return (
    <details className="site-account member-menu">
      <summary>
        <span className="visually-hidden">Signed in as </span>
        {name}
      </summary>
      <ul className="member-menu-items">
        <li>
          <a href="/account">Account</a>
        </li>
        <li>
          {csrfToken ? (
            <form method="post" action="/api/auth/signout">
              <input type="hidden" name="csrfToken" value={csrfToken} />
              <input type="hidden" name="callbackUrl" value="/" />
              <button className="link-button" type="submit">
                Sign out
              </button>
            </form>
          ) : (
            <a href="/login/signout?callbackUrl=%2F">Sign out</a>
          )}
        </li>
      </ul>
    </details>
  );
}
