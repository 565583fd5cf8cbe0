import { SectionInPreparation } from '../../../components/ui/section-in-preparation';

/** Built by a later issue; the route, its guards and its chunk are in place. */
export default function ContactRoute() {
  return <SectionInPreparation section="contact" />;
}
