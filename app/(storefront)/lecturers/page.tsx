import { DocumentView } from "../_components/document-view";
import { documentMetadata, loadDocument } from "../_components/load";

export const dynamic = "force-dynamic";

export const generateMetadata = () => documentMetadata("lecturer_index");

export default async function LecturerIndexPage() {
  return <DocumentView doc={await loadDocument("lecturer_index")} />;
}
