import { isUuid } from "../core/ids";
import { db } from "../db/client";

export interface DownloadFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * The file of one of a school's digital downloads, for a member who has the download's access, else
 * null (docs/decisions.md, "Digital download files"). Access is a DownloadAccess row of this member
 * at this school: bought at checkout, or a free download taken. It is not undone by a refund (the
 * rule of "One-time purchases") nor by the download leaving the storefront (what was bought stays
 * the buyer's). Unknown, foreign, not owned and fileless are all the same null, so the caller's
 * answer never tells whether a download or its file exists.
 */
export async function findDownloadFile(options: { schoolId: string; userId: string; downloadId: string }): Promise<DownloadFile | null> {
  const { schoolId, userId, downloadId } = options;
  if (!isUuid(downloadId)) return null;
  const access = await db().downloadAccess.findUnique({
    where: { downloadId_userId: { downloadId, userId } },
    select: { schoolId: true, download: { select: { fileSha256: true, fileName: true } } },
  });
  if (!access || access.schoolId !== schoolId || !access.download.fileSha256) return null;
  const file = await db().contentFile.findUnique({
    where: { schoolId_sha256: { schoolId, sha256: access.download.fileSha256 } },
    select: { name: true, contentType: true, bytes: true },
  });
  if (!file) return null;
  // The name the download was imported with (its own file may share bytes with another's).
  return { name: access.download.fileName ?? file.name, contentType: file.contentType, bytes: file.bytes };
}
