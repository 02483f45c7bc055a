// GET /account/downloads/<download id>: the file of a digital download, for the signed-in member
// who has its access (docs/decisions.md, "Digital download files"). Checked on every request, never
// cached anywhere, always an attachment; whoever has no access gets the same 404 whether the
// download exists or not, and a visitor goes to sign in and comes back here.
import { attachmentDisposition } from "../content/download-files";
import { isDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { findDownloadFile } from "../membership/find-download-file";
import { requestContext } from "../tenancy/request-context";
import { accountAccess, accountLoginPath } from "./access";

export const ACCOUNT_DOWNLOADS_PATH = "/account/downloads";

/** The address a member downloads a download's file from (the account page links it). */
export const downloadFilePath = (downloadId: string) => `${ACCOUNT_DOWNLOADS_PATH}/${encodeURIComponent(downloadId)}`;

const plain = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store", vary: "Cookie", ...headers } });
const notFound = () => plain(404, "Not found");

export async function serveDownloadFile(request: Request, downloadId: string): Promise<Response> {
  try {
    const access = await accountAccess(request);
    if (access.kind === "anonymous") {
      const location = new URL(accountLoginPath(downloadFilePath(downloadId)), requestContext(request).origin).toString();
      return new Response(null, { status: 307, headers: { location, "cache-control": "private, no-store" } });
    }
    if (access.kind !== "member") return notFound();
    const file = await findDownloadFile({ schoolId: access.school.id, userId: access.session.userId, downloadId });
    if (!file) return notFound();
    const headers = {
      "content-type": file.contentType,
      "content-disposition": attachmentDisposition(file.name),
      "content-length": String(file.bytes.length),
      // The member's own copy: no shared cache keeps it, no browser cache either (access is re-checked).
      "cache-control": "private, no-store",
      vary: "Cookie",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cross-origin-resource-policy": "same-origin",
      "referrer-policy": "no-referrer",
    };
    return new Response(request.method === "HEAD" ? null : new Uint8Array(file.bytes), { status: 200, headers });
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return plain(503, "Downloads are unavailable for a moment; retry shortly.", retryAfterHeaders());
  }
}
