import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useHref, useLinkClickHandler, useLocation } from 'react-router';

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
}

/**
 * An in-app link: a real <a href> that navigates through the router on a plain click.
 * React Router's <Link>/<NavLink> carry framework-mode prefetching we never use; this is
 * the part we need, lighter for the entry chunk (docs/decisions/033).
 */
export function AppLink({ to, onClick, target, ...rest }: AppLinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler(to, target ? { target } : {});
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}

/** A navigation link that says when it is the current page (aria-current="page"). */
export function NavItem(props: AppLinkProps) {
  const { pathname } = useLocation();
  const current = pathname === props.to || pathname.startsWith(`${props.to}/`);
  return <AppLink {...props} aria-current={current ? 'page' : undefined} />;
}
