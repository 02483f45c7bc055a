import { describe, expect, it } from "vitest";
import { edgeErrorResponse, edgeProblem, isCleanComponent } from "./guard";

const req = (url: string, headers: Record<string, string> = { host: "localhost:3000" }, trustProxy = false) => ({
  url,
  headers: new Headers(headers),
  trustProxy,
});

describe("isCleanComponent", () => {
  it.each(["/courses/intro", "/courses/caf%C3%A9", "/a%20b", "x=1&y=%2F", "/ünï", ""])("accepts %j", (s) => expect(isCleanComponent(s)).toBe(true));
  it.each(["/courses/%zz", "/api/md/courses/%E0%A4%A", "/%ED%A0%80", "/%C0%AE%C0%AE", "/abc%", "/a%0", "x=%00", "/a\u0000b", "/%FF"])("refuses %j", (s) =>
    expect(isCleanComponent(s)).toBe(false),
  );
});

describe("edgeProblem", () => {
  it("passes a clean request", () => {
    expect(edgeProblem(req("http://localhost:3000/courses/intro?page=2"))).toBeNull();
  });
  it("passes a request without Host (HTTP/1.0)", () => {
    expect(edgeProblem(req("http://localhost:3000/", {}))).toBeNull();
  });
  it.each(["[zzz]", "localhost:abc", "a b", "127.0.0.1:99999"])("refuses Host %j", (host) => {
    expect(edgeProblem(req("http://localhost:3000/", { host }))).toBe("invalid_host");
  });
  it("checks X-Forwarded-Host only behind a trusted proxy", () => {
    const headers = { host: "localhost:3000", "x-forwarded-host": "a b" };
    expect(edgeProblem(req("http://localhost:3000/", headers, false))).toBeNull();
    expect(edgeProblem(req("http://localhost:3000/", headers, true))).toBe("invalid_host");
  });
  it("refuses malformed paths and queries", () => {
    expect(edgeProblem(req("http://localhost:3000/courses/%zz"))).toBe("malformed_path");
    expect(edgeProblem(req("http://localhost:3000/oauth/authorize?client_id=a%00b"))).toBe("malformed_query");
  });
});

describe("edgeErrorResponse: 400 in the endpoint's own format", () => {
  it.each([
    ["/api/md/courses/%zz", "text/markdown", /^---\ntype: "error"\nstatus: 400/],
    ["/llms.txt", "text/markdown", /status: 400/],
    ["/admin/graphql", "application/json", /"errors":\[\{"message":/],
    ["/api/oauth/token", "application/json", /"error":"invalid_request"/],
    ["/.well-known/oauth-authorization-server", "application/json", /"error":"invalid_request"/],
    ["/api/auth/session", "application/json", /"error":"bad_request"/],
    ["/openapi.json", "application/json", /"error":"bad_request"/],
    ["/courses/%zz", "text/html", /<h1>Bad request<\/h1>/],
    ["/oauth/authorize?x=%00", "text/html", /<h1>Bad request<\/h1>/],
  ])("%s", async (path, type, body) => {
    const res = edgeErrorResponse(`http://localhost:3000${path}`, "malformed_path");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain(type);
    expect(await res.text()).toMatch(body);
  });
});
