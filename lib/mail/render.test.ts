import { describe, expect, it } from "vitest";
import { oneLine, renderMail } from "./render";

const school = { name: "Pottery <b>& Co</b>", brandColor: "#aa3300" };

describe("renderMail", () => {
  it("escapes every value in the HTML part and keeps the text part plain", () => {
    const m = renderMail(
      { subject: "Hi\r\nBcc: x@evil.test", heading: "<script>alert(1)</script>", paragraphs: ['"quoted" & <tagged>'], action: { label: "Go <now>", url: "https://demo.example/a?b=1&c=<2>" } },
      school,
    );
    expect(m.subject).toBe("Hi Bcc: x@evil.test");
    expect(m.html).not.toContain("<script>");
    expect(m.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(m.html).toContain("Pottery &lt;b&gt;&amp; Co&lt;/b&gt;");
    expect(m.html).toContain('href="https://demo.example/a?b=1&amp;c=%3C2%3E"');
    expect(m.html).toContain("#aa3300");
    expect(m.text).toContain("<script>alert(1)</script>");
    expect(m.text).toContain("https://demo.example/a?b=1&c=%3C2%3E");
    expect(m.links).toEqual(["https://demo.example/a?b=1&c=%3C2%3E"]);
  });

  it("refuses a link that is not http(s), and an invalid colour falls back", () => {
    expect(() => renderMail({ subject: "s", heading: "h", paragraphs: [], action: { label: "x", url: "javascript:alert(1)" } }, school)).toThrow(/refused/);
    const m = renderMail({ subject: "s", heading: "h", paragraphs: [] }, { name: "n", brandColor: "red;background:url(x)" });
    expect(m.html).not.toContain("url(x)");
  });

  it("oneLine removes control characters and line separators", () => {
    expect(oneLine("a\r\nb\tc\u2028d\u0000e")).toBe("a b c d e");
  });
});
