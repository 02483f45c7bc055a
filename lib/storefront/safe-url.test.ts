import { describe, expect, it } from "vitest";
import { safeHref } from "./safe-url";

describe("safeHref", () => {
  it.each(["/courses/x", "#part", "?q=1", "page", "https://example.com/a", "http://x.test", "mailto:a@b.test"])("keeps %s", (href) => {
    expect(safeHref(href)).toBe(href);
  });
  it.each(["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", " javascript:x", "data:text/html,x", "vbscript:x", "//evil.test/x", ""])(
    "drops %j",
    (href) => {
      expect(safeHref(href)).toBeNull();
    },
  );
});
