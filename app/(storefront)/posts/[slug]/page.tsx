import { DocumentView } from "../../_components/document-view";
import { documentMetadata, loadDocument } from "../../_components/load";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props) {
  return documentMetadata("post", (await params).slug);
}

export default async function PostPage({ params }: Props) {
  return <DocumentView doc={await loadDocument("post", (await params).slug)} />;
}
