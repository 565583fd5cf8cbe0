import { LegalDocument } from '../components/legal-document';

export default function PrivacyRoute() {
  return <LegalDocument document="privacy" />;
}
