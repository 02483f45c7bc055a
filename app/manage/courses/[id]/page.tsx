import { forbidden, notFound } from "next/navigation";
import { QueryInputError } from "@/lib/core/page";
import { courseEnrollments } from "@/lib/console/courses";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { ConsoleShell, consoleMetadata, consolePage, formatDateTime, one, type Search } from "../../_components/console";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Course enrollments");

const PATH = `${CONSOLE_PATH}/courses`;

export default async function CourseEnrollmentsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const query = await searchParams;
  const staff = await consolePage(PATH, "courses:read_own");
  let result;
  let badCursor = false;
  try {
    result = await courseEnrollments({ staff, courseId: id, after: one(query.after)?.slice(0, 512) ?? null });
  } catch (err) {
    if (!(err instanceof QueryInputError)) throw err;
    badCursor = true;
    result = await courseEnrollments({ staff, courseId: id, after: null });
  }
  if (result.kind === "not_found") notFound();
  if (result.kind === "forbidden") forbidden();
  const { course, page } = result;
  return (
    <ConsoleShell staff={staff} current={PATH} title={course.title}>
      <p>
        <a href={PATH}>All courses</a>
      </p>
      {badCursor ? (
        <p className="error" role="alert">
          That page link is not valid: showing the first page.
        </p>
      ) : null}
      <h2>Enrolled members</h2>
      {page.nodes.length === 0 ? (
        <p>No one is enrolled{query.after ? " after this point" : ""}.</p>
      ) : (
        <div className="table-scroll">
          <table className="console-table">
            <caption className="visually-hidden">Members enrolled in {course.title}</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Email</th>
                <th scope="col">Enrolled</th>
              </tr>
            </thead>
            <tbody>
              {page.nodes.map((e) => (
                <tr key={e.id}>
                  <td>{e.user.name}</td>
                  <td>{e.user.email}</td>
                  <td>{formatDateTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.pageInfo.hasNextPage && page.pageInfo.endCursor ? (
        <p>
          <a href={`${PATH}/${course.id}?after=${encodeURIComponent(page.pageInfo.endCursor)}`}>Next page</a>
        </p>
      ) : null}
    </ConsoleShell>
  );
}
