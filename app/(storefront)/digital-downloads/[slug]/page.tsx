import { DocumentView } from "../../_components/document-view";
import { documentMetadata, loadDocument } from "../../_components/load";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props) {
  return documentMetadata("digital_download", (await params).slug);
}

export default async function DigitalDownloadPage({ params }: Props) {
  return <DocumentView doc={await loadDocument("digital_download", (await params).slug)} />;
}
