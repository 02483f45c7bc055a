import { forbidden, notFound } from "next/navigation";
import { courseEnrollments } from "@/lib/console/courses";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { INVALID_PAGE_LINK } from "@/lib/console/paging";
import type { EnrollmentPage } from "@/lib/membership/list-enrollments";
import { ConsoleShell, consoleMetadata, consolePage, formatDateTime, one, type Search } from "../../_components/console";
import { ConsoleTable, NextPageLink, PageAlert, type ConsoleColumn } from "../../_components/lists";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Course enrollments");

const PATH = `${CONSOLE_PATH}/courses`;

const COLUMNS: ConsoleColumn<EnrollmentPage["nodes"][number]>[] = [
  { header: "Member", cell: (e) => e.user.name },
  { header: "Email", cell: (e) => e.user.email },
  { header: "Enrolled", cell: (e) => formatDateTime(e.createdAt) },
];

export default async function CourseEnrollmentsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Search }) {
  const { id } = await params;
  const query = await searchParams;
  const staff = await consolePage(PATH, "courses:read_own");
  const result = await courseEnrollments({ staff, courseId: id, after: one(query.after)?.slice(0, 512) ?? null });
  if (result.kind === "not_found") notFound();
  if (result.kind === "forbidden") forbidden();
  const { course, page, badCursor } = result;
  return (
    <ConsoleShell staff={staff} current={PATH} title={course.title}>
      <p>
        <a href={PATH}>All courses</a>
      </p>
      <PageAlert text={badCursor ? INVALID_PAGE_LINK : null} />
      <h2>Enrolled members</h2>
      <ConsoleTable
        caption={`Members enrolled in ${course.title}`}
        columns={COLUMNS}
        rows={page.nodes}
        rowKey={(e) => e.id}
        empty={`No one is enrolled${query.after ? " after this point" : ""}.`}
      />
      <NextPageLink path={`${PATH}/${course.id}`} pageInfo={page.pageInfo} />
    </ConsoleShell>
  );
}
