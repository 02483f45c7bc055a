// A POST whose body is never finished: proves a server answers a body limit without reading the rest.
import { request as httpRequest } from "node:http";

/** Sends the headers and `sent` bytes of a body declared (or streamed) larger, then waits for the answer. */
export function partialPost(url: string, path: string, headers: Record<string, string>, sent: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", (err) => ((err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err)));
    req.write("x".repeat(sent));
    // The request is never ended: the server must answer without the rest.
  });
}
