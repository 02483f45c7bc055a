import { describe, expect, it } from "vitest";
import { safeCallbackFromUrl, safeCallbackPath } from "./callback-url";

describe("safeCallbackPath", () => {
  it.each([
    ["/oauth/authorize?client_id=a&x=1", "/oauth/authorize?client_id=a&x=1"],
    ["/courses#top", "/courses#top"],
    [undefined, "/"],
    ["", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example/", "/"],
    ["/\t/evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["courses", "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });
});

describe("safeCallbackFromUrl", () => {
  it("keeps same-origin absolute URLs as paths and drops other origins", () => {
    expect(safeCallbackFromUrl("http://demo.localhost/a?b=1", "http://demo.localhost")).toBe("/a?b=1");
    expect(safeCallbackFromUrl("http://acme.localhost/a", "http://demo.localhost")).toBe("/");
    expect(safeCallbackFromUrl("/c", "http://demo.localhost")).toBe("/c");
  });
});
