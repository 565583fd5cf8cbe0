import { LegalDocument } from '../components/legal-document';

export default function TermsRoute() {
  return <LegalDocument document="terms" />;
}
