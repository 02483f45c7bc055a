import { DocumentView } from "../../_components/document-view";
import { documentMetadata, loadDocument } from "../../_components/load";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props) {
  return documentMetadata("category", (await params).slug);
}

export default async function CategoryPage({ params }: Props) {
  return <DocumentView doc={await loadDocument("category", (await params).slug)} />;
}
