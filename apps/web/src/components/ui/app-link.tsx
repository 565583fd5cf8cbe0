/**
 * In-app links are React Router's own: `AppLink` is `<Link>`, `NavItem` is `<NavLink>` (it
 * says aria-current="page" on the current page). Both follow the router's basename, so a link
 * stays in the page's language (docs/decisions/053).
 */
export { Link as AppLink, NavLink as NavItem } from 'react-router';
