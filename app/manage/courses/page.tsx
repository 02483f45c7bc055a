import { consoleCourses } from "@/lib/console/courses";
import { CONSOLE_PATH } from "@/lib/console/nav";
import { ConsoleShell, consoleMetadata, consolePage } from "../_components/console";

export const dynamic = "force-dynamic";
export const generateMetadata = consoleMetadata("Courses");

const PATH = `${CONSOLE_PATH}/courses`;

export default async function CoursesPage() {
  const staff = await consolePage(PATH, "courses:read_own");
  const courses = await consoleCourses(staff);
  const all = staff.permissions.has("courses:read_all");
  return (
    <ConsoleShell staff={staff} current={PATH} title="Courses">
      <p>{all ? "Every course of the school and how many members are enrolled." : "The courses you teach and who is enrolled (read-only)."}</p>
      {courses.length === 0 ? (
        <p>{all ? "The school has no courses yet." : "No course lists you as its lecturer."}</p>
      ) : (
        <div className="table-scroll">
          <table className="console-table">
            <caption className="visually-hidden">Courses</caption>
            <thead>
              <tr>
                <th scope="col">Course</th>
                <th scope="col">Status</th>
                <th scope="col">Enrollments</th>
              </tr>
            </thead>
            <tbody>
              {courses.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={`${PATH}/${c.id}`}>{c.title}</a>
                  </td>
                  <td>{c.status}</td>
                  <td>{c.enrollments}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </ConsoleShell>
  );
}
