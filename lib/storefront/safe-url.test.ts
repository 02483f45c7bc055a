import { describe, expect, it } from "vitest";
import { safeAbsoluteUrl, safeHref } from "./safe-url";

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

describe("safeHref({ absolute: true })", () => {
  it.each([
    ["https://meet.test/room", "https://meet.test/room"],
    ["https://meet.test", "https://meet.test/"],
    ["  https://meet.test/a?b=<c>  ", "https://meet.test/a?b=%3Cc%3E"],
    ['http://x.test/"q"', "http://x.test/%22q%22"],
  ])("keeps %j as %j", (href, out) => {
    expect(safeHref(href, { absolute: true })).toBe(out);
  });
  it.each(["/relative", "mailto:a@b.test", "data:text/html,<script>x</script>", "javascript:alert(1)", "java\tscript:x", "https://a b.test/", "https://x.test/a b", "https:", "//evil.test", "ftp://x.test/"])(
    "drops %j",
    (href) => {
      expect(safeHref(href, { absolute: true })).toBeNull();
    },
  );
});

describe("safeAbsoluteUrl", () => {
  it("resolves relative references against the origin and refuses script URLs", () => {
    expect(safeAbsoluteUrl("/img/a.png", "https://s.test")).toBe("https://s.test/img/a.png");
    expect(safeAbsoluteUrl("https://cdn.test/a.png", "https://s.test")).toBe("https://cdn.test/a.png");
    expect(safeAbsoluteUrl("javascript:alert(1)", "https://s.test")).toBeNull();
    expect(safeAbsoluteUrl("mailto:a@b.test", "https://s.test")).toBeNull();
    expect(safeAbsoluteUrl("/\\evil.test/x", "https://s.test")).toBeNull();
  });
});
