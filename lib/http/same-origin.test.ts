import { describe, expect, it } from "vitest";
import { isSameOriginPost } from "./same-origin";

const post = (headers: Record<string, string>) => new Headers(headers);
const ORIGIN = "http://demo.localhost";

describe("isSameOriginPost (the CSRF check of every HTML form: checkout, test provider, console)", () => {
  it("takes this origin's posts: Origin, or Sec-Fetch-Site same-origin (with Origin null under no-referrer)", () => {
    expect(isSameOriginPost(post({ origin: ORIGIN }), ORIGIN)).toBe(true);
    expect(isSameOriginPost(post({ origin: ORIGIN, "sec-fetch-site": "same-origin" }), ORIGIN)).toBe(true);
    expect(isSameOriginPost(post({ origin: "null", "sec-fetch-site": "same-origin" }), ORIGIN)).toBe(true);
    expect(isSameOriginPost(post({ "sec-fetch-site": "same-origin" }), ORIGIN)).toBe(true);
  });

  it("refuses cross-site posts and posts that prove nothing", () => {
    expect(isSameOriginPost(post({ origin: "https://evil.example" }), ORIGIN)).toBe(false);
    expect(isSameOriginPost(post({ origin: "https://evil.example", "sec-fetch-site": "same-origin" }), ORIGIN)).toBe(false);
    expect(isSameOriginPost(post({ origin: ORIGIN, "sec-fetch-site": "cross-site" }), ORIGIN)).toBe(false);
    expect(isSameOriginPost(post({ origin: "null" }), ORIGIN)).toBe(false);
    expect(isSameOriginPost(post({ "sec-fetch-site": "same-site" }), ORIGIN)).toBe(false);
    expect(isSameOriginPost(post({}), ORIGIN)).toBe(false);
  });
});
