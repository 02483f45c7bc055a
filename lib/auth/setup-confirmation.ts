// The login page's confirmation that a password was just set: `setup=done` and the member's email
// (prefilled), carried from the set-password form to the login page, also through the CSRF-cookie
// detour (/api/auth/login) a visitor without the cookie takes on the way.

const MAX_EMAIL_LENGTH = 320;

/** The login page's query after a password was set. */
export function loginAfterSetup(email: string): string {
  return `/login?${new URLSearchParams({ setup: "done", email })}`;
}

/** The confirmation parameters of a query, if it carries them: `setup=done` and a plausible email. */
export function setupConfirmation(params: URLSearchParams): [string, string][] {
  if (params.get("setup") !== "done") return [];
  const email = params.get("email") ?? "";
  return email.length > 0 && email.length <= MAX_EMAIL_LENGTH && email.includes("@") ? [["setup", "done"], ["email", email]] : [["setup", "done"]];
}
