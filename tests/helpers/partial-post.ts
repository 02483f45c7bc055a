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

/**
 * Writes `head` (a request line and headers ending in a blank line, Transfer-Encoding: chunked) on a
 * raw socket, then chunks of `chunkBytes` every 5 ms of a body that never ends, and resolves with
 * everything the server wrote once it closes the connection: an answer can only come from the
 * server stopping its read at a limit.
 */
export async function endlessChunkedPost(port: number, host: string, head: string, chunkBytes: number): Promise<string> {
  const { connect } = await import("node:net");
  const socket = connect(port, host);
  socket.write(head);
  const chunk = Buffer.concat([Buffer.from(`${chunkBytes.toString(16)}\r\n`), Buffer.alloc(chunkBytes, 97), Buffer.from("\r\n")]);
  const writer = setInterval(() => socket.writable && socket.write(chunk), 5);
  try {
    return await new Promise<string>((resolve) => {
      let out = "";
      socket.on("data", (d) => (out += d));
      socket.on("close", () => resolve(out));
      socket.on("error", () => {});
    });
  } finally {
    clearInterval(writer);
  }
}
