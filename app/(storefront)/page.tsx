import { DocumentView } from "./_components/document-view";
import { documentMetadata, loadDocument } from "./_components/load";

export const dynamic = "force-dynamic";

export const generateMetadata = () => documentMetadata("home");

export default async function HomePage() {
  return <DocumentView doc={await loadDocument("home")} />;
}
