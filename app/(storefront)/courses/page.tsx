import { DocumentView } from "../_components/document-view";
import { documentMetadata, loadDocument } from "../_components/load";

export const dynamic = "force-dynamic";

export const generateMetadata = () => documentMetadata("course_index");

export default async function CourseIndexPage() {
  return <DocumentView doc={await loadDocument("course_index")} />;
}
