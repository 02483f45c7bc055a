import { describe, expect, it } from "vitest";
import { callbackAsksForSignIn, createLoginTicket, LOGIN_TICKET_TTL_SECONDS, loginTicketTime } from "./login-ticket";

const t0 = new Date("2026-06-01T10:00:00.123Z");
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("login tickets (prompt=login)", () => {
  it("a ticket gives back the time it was issued, until it expires", () => {
    const ticket = createLoginTicket(t0);
    expect(ticket).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(loginTicketTime(ticket, t0)).toEqual(t0);
    expect(loginTicketTime(ticket, later(LOGIN_TICKET_TTL_SECONDS))).toEqual(t0);
    expect(loginTicketTime(ticket, later(LOGIN_TICKET_TTL_SECONDS + 1))).toBeNull();
  });

  it("refuses a ticket from the future (a clock moved back)", () => {
    expect(loginTicketTime(createLoginTicket(later(5)), t0)).toBeNull();
  });

  it("refuses a ticket whose time was changed, whose MAC was changed, or that is malformed", () => {
    const [ms, mac] = createLoginTicket(t0).split(".") as [string, string];
    const flipped = (mac[0] === "A" ? "B" : "A") + mac.slice(1);
    for (const bad of [
      `${Number(ms) - 60_000}.${mac}`,
      `${ms}.${flipped}`,
      `${ms}.`,
      mac,
      "",
      `${ms}.${mac}.x`,
      `-${ms}.${mac}`,
      `${"9".repeat(400)}.${mac}`,
      `${ms}.${mac}\n`,
    ]) {
      expect(loginTicketTime(bad, t0), bad).toBeNull();
    }
  });

  it("tells the login page when its callback asks for a new sign-in", () => {
    expect(callbackAsksForSignIn(`/oauth/authorize?client_id=x&login_ticket=${encodeURIComponent(createLoginTicket(t0))}`)).toBe(true);
    expect(callbackAsksForSignIn("/oauth/authorize?client_id=x&prompt=consent")).toBe(false);
    expect(callbackAsksForSignIn("/")).toBe(false);
  });
});
