import { describe, expect, it } from "vitest";
import { isValidSlug, matchMarkdownUrl, matchPage, STOREFRONT_ROUTES } from "./routes";

describe("matchPage", () => {
  it.each([
    ["/", "home", "/api/md/home"],
    ["/faq", "faq", "/api/md/faq"],
    ["/faq/", "faq", "/api/md/faq"],
    ["/courses", "course_index", "/api/md/courses"],
    ["/courses/intro-to-sql", "course", "/api/md/courses/intro-to-sql"],
    ["/posts/a", "post", "/api/md/posts/a"],
    ["/events/a", "event", "/api/md/events/a"],
    ["/digital-downloads/a", "digital_download", "/api/md/digital-downloads/a"],
    ["/plans/a", "plan", "/api/md/plans/a"],
    ["/categories/a", "category", "/api/md/categories/a"],
    ["/lecturers", "lecturer_index", "/api/md/lecturers"],
    ["/lecturers/a", "lecturer", "/api/md/lecturers/a"],
  ])("%s → %s", (path, kind, md) => {
    const m = matchPage(path)!;
    expect(m.route.kind).toBe(kind);
    expect(m.markdownPath).toBe(md);
  });

  it.each(["/login", "/oauth/authorize", "/api/md/home", "/courses/a/b", "/posts", "/coursesx", "/admin/graphql"])("%s is no storefront page", (path) => {
    expect(matchPage(path)).toBeNull();
  });

  it("covers the eleven markdown routes of the spec", () => {
    expect(STOREFRONT_ROUTES.map((r) => r.markdownPath)).toEqual([
      "/api/md/home",
      "/api/md/faq",
      "/api/md/courses",
      "/api/md/courses/{slug}",
      "/api/md/posts/{slug}",
      "/api/md/events/{slug}",
      "/api/md/digital-downloads/{slug}",
      "/api/md/plans/{slug}",
      "/api/md/categories/{slug}",
      "/api/md/lecturers",
      "/api/md/lecturers/{slug}",
    ]);
  });
});

describe("isValidSlug", () => {
  it.each(["a", "intro-to-sql", "bootcamp-90-days", "x".repeat(200)])("accepts %s", (s) => expect(isValidSlug(s)).toBe(true));
  it.each(["", "A", "a_b", "-a", "a-", "a--b", "a/b", "a.b", " a", "x".repeat(201), "é"])("refuses %j", (s) => expect(isValidSlug(s)).toBe(false));
});

describe("matchMarkdownUrl", () => {
  it.each([
    ["/index.md", "/api/md/home"],
    ["/faq.md", "/api/md/faq"],
    ["/courses.md", "/api/md/courses"],
    ["/courses/intro-to-sql.md", "/api/md/courses/intro-to-sql"],
    ["/lecturers/tomas-rivera.md", "/api/md/lecturers/tomas-rivera"],
  ])("%s → %s", (path, md) => {
    expect(matchMarkdownUrl(path)?.markdownPath).toBe(md);
  });

  it.each(["/.md", "/courses/.md", "/faq/.md", "/courses/a/b.md", "/nope.md", "/courses/intro-to-sql", "/faq.mdx", "/api/md/faq.md", "/index"])("%s is no page's .md URL", (path) => {
    expect(matchMarkdownUrl(path)).toBeNull();
  });
});
