import { consoleCourses, type ConsoleCourse } from "@/lib/console/courses";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { ConsoleShell, consoleMetadata, consolePage } from "../_components/console";
import { ConsoleTable, type ConsoleColumn } from "../_components/lists";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Courses");

const PATH = `${CONSOLE_PATH}/courses`;

const COLUMNS: ConsoleColumn<ConsoleCourse>[] = [
  { header: "Course", cell: (c) => <a href={`${PATH}/${c.id}`}>{c.title}</a> },
  { header: "Status", cell: (c) => c.status },
  { header: "Enrollments", cell: (c) => c.enrollments },
];

export default async function CoursesPage() {
  const staff = await consolePage(PATH, "courses:read_own");
  const courses = await consoleCourses(staff);
  const all = staff.permissions.has("courses:read_all");
  return (
    <ConsoleShell staff={staff} current={PATH} title="Courses">
      <p>{all ? "Every course of the school and how many members are enrolled." : "The courses you teach and who is enrolled (read-only)."}</p>
      <ConsoleTable caption="Courses" columns={COLUMNS} rows={courses} rowKey={(c) => c.id} empty={all ? "The school has no courses yet." : "No course lists you as its lecturer."} />
    </ConsoleShell>
  );
}
