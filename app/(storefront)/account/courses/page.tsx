import Link from "next/link";
import { memberCourses } from "@/lib/account/queries";
import { AccountShell, accountMetadata, accountPage, formatDate, one, type Search } from "../_components/account";

export const dynamic = "force-dynamic";
export const generateMetadata = accountMetadata("Courses");

export default async function CoursesPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const { member } = await accountPage("/account/courses", one(params.cookie_check) === "1");
  const courses = await memberCourses(member);
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
    </AccountShell>
  );
}
