import { DocumentView } from "../_components/document-view";
import { documentMetadata, loadDocument } from "../_components/load";

export const dynamic = "force-dynamic";

export const generateMetadata = () => documentMetadata("faq");

export default async function FaqPage() {
  return <DocumentView doc={await loadDocument("faq")} />;
}
