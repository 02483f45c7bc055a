import { describe, expect, it } from "vitest";
import { isAccountPagePath } from "./access";

// The proxy's account gate (login redirect, 403) covers the member's pages only: the pages a mailed
// link opens must work signed out, or the link would ask a member who forgot their password to sign in.
describe("isAccountPagePath", () => {
  it("covers /account and its pages", () => {
    for (const p of ["/account", "/account/", "/account/memberships", "/account/payments/x", "/account/sessions"]) expect(isAccountPagePath(p)).toBe(true);
  });

  it("leaves the mailed links' pages and other paths alone", () => {
    for (const p of ["/account/set-password", "/account/verify-email", "/account/verify-email/", "/accounts", "/login", "/"]) expect(isAccountPagePath(p)).toBe(false);
  });
});
