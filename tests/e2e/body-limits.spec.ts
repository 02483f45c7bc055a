// Oversized request bodies against the real server (issue 29, item 13). Next reads the whole body
// of a request proxy.ts matched before it answers, so the body-reading endpoints skip the proxy for
// a body declared larger than their limit or sent chunked (proxy.ts, config.matcher): a declared
// 30 MB body is refused at once, a streamed one once the limit is passed, and the server closes the
// connection (it stops reading) while the client is still sending. Raw sockets, as a hostile client.
import { expect, test } from "@playwright/test";
import { ENDPOINTS, hostilePost } from "./hostile-body";

test.describe("oversized bodies (issue 29, item 13)", () => {
  for (const e of ENDPOINTS) {
    test(`${e.path}: a declared 30 MB body is refused at once and the connection closed`, async () => {
      // Headers only: nothing unread is left when the server closes, so the 413 always arrives.
      const r = await hostilePost(e.path, e.headers, { declared: 30_000_000, send: 0 });
      expect(r.status).toBe(413);
      expect(r.closedByServer).toBe(true);
      expect(r.ms).toBeLessThan(5_000);
    });

    test(`${e.path}: a declared 30 MB body whose first 64 KB are sent is refused at once and the connection closed`, async () => {
      // The server answers without reading the 64 KB: its close then resets the connection, and the
      // client's TCP stack may drop the 413 before it is read (status 0), as in the streamed case below.
      const r = await hostilePost(e.path, e.headers, { declared: 30_000_000, send: 64 * 1024 });
      expect([413, 0]).toContain(r.status);
      expect(r.closedByServer).toBe(true);
      expect(r.ms).toBeLessThan(5_000);
    });

    test(`${e.path}: a streamed body is refused once it passes the limit, and the server stops reading`, async () => {
      // The client would send 64 MB: the server answers and closes long before. Node has no
      // lingering close: the close resets a connection whose client is still sending, and the
      // client's TCP stack may drop the 413 it had received (status 0). Either way the server
      // stopped reading (docs/security.md; the front proxy's lingering close delivers the 413).
      const r = await hostilePost(e.path, e.headers, { send: 64 * 1024 * 1024 });
      expect([413, 0]).toContain(r.status);
      expect(r.closedByServer).toBe(true);
      expect(r.ms).toBeLessThan(5_000);
    });
  }
});
