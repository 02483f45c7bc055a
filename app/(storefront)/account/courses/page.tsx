import Link from "next/link";
import { memberCourses, memberDownloads } from "@/lib/account/queries";
import { displayBytes } from "@/lib/storefront/format";
import { AccountShell, accountMetadata, accountPage, formatDate, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Courses");

export default async function CoursesPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member } = await accountPage("/account/courses", one(params.cookie_check) === "1");
  const [courses, downloads] = await Promise.all([memberCourses(member), memberDownloads(member)]);
  return (
    <AccountShell current="courses" title="Your courses" params={params}>
      {courses.length === 0 ? (
        <p>
          You are not enrolled in any course here yet. <Link href="/courses">Browse the courses</Link>.
        </p>
      ) : (
        <ul className="account-items">
          {courses.map((c) => (
            <li key={c.id} className="card">
              {c.published ? <Link href={`/courses/${encodeURIComponent(c.slug)}`}>{c.title}</Link> : <span>{c.title} (no longer listed)</span>}
              <p className="meta">Enrolled {formatDate(c.enrolledAt)}</p>
            </li>
          ))}
        </ul>
      )}
      {downloads.length ? (
        <section aria-labelledby="downloads-heading">
          <h2 id="downloads-heading">Your downloads</h2>
          <ul className="account-items">
            {downloads.map((d) => (
              <li key={d.id} className="card">
                {d.published ? <Link href={`/digital-downloads/${encodeURIComponent(d.slug)}`}>{d.title}</Link> : <span>{d.title} (no longer listed)</span>}
                <p className="meta">
                  {d.fileName ? `${d.fileName}${d.fileSizeBytes !== null ? ` (${displayBytes(d.fileSizeBytes)})` : ""} · ` : ""}Yours since {formatDate(d.since)}
                </p>
                {d.filePath ? (
                  // A plain link: the endpoint answers an attachment, so the browser saves it and stays here.
                  <a className="button" href={d.filePath} download={d.fileName ?? true} aria-label={`Download ${d.title}`}>
                    Download
                  </a>
                ) : (
                  <p className="meta">The school has not added the file yet.</p>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AccountShell>
  );
}
