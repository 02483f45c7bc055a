// Bodies are limited while they stream (issue 11, finding 9): the Admin API refuses more than
// ADMIN_MAX_BODY_BYTES with 413 in its own format, without waiting for the rest of the body.
import { describe, expect, it } from "vitest";
import { ADMIN_MAX_BODY_BYTES } from "@/lib/admin-api/request-shape";
import { partialPost } from "../../helpers/partial-post";
import { FULL_KEY, adminAppForSuite } from "./helpers";

const app = adminAppForSuite({ now: null });

describe("Admin API body limit", () => {
  it("refuses a declared oversize body at once with 413", async () => {
    const r = await partialPost(app.url, "/admin/graphql", { "content-type": "application/json", "x-service-api-key": FULL_KEY, "content-length": String(20 * 1024 * 1024) }, 1024);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses a streamed body once it passes the limit, without reading the rest", async () => {
    const r = await partialPost(app.url, "/admin/graphql", { "content-type": "application/json", "x-service-api-key": FULL_KEY }, ADMIN_MAX_BODY_BYTES + 64 * 1024);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).errors[0].message).toMatch(/larger than 1 MiB/);
  });

  it("refuses a body that is not UTF-8 with 400", async () => {
    const body = Buffer.concat([Buffer.from('{"query":"{ __typename }","variables":{"a":"'), Buffer.from([0xc0, 0xae]), Buffer.from('"}}')]);
    const res = await app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY }, body });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  it("admits a body just under the limit", async () => {
    const query = `{ __typename }${" ".repeat(ADMIN_MAX_BODY_BYTES - 100)}`;
    const res = await app.fetch("/admin/graphql", { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": FULL_KEY }, body: JSON.stringify({ query }) });
    expect(res.status).toBe(200);
  });
});
