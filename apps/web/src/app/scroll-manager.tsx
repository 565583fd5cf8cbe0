import { useEffect, useLayoutEffect } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

const positions = new Map<string, number>();

/**
 * spec §2 Navigation: a hash scrolls smoothly to its anchor; back and forward restore the
 * saved position; any other navigation starts at the top.
 */
export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  }, []);

  useEffect(() => {
    let frame = 0;
    const save = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => positions.set(location.key, window.scrollY));
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', save);
    };
  }, [location.key]);

  useLayoutEffect(() => {
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView({ behavior: 'smooth', block: 'start' });
        return;
      }
    }
    const saved = navigationType === NavigationType.Pop ? positions.get(location.key) : undefined;
    window.scrollTo({ top: saved ?? 0, left: 0, behavior: 'instant' });
  }, [location.key, location.hash, navigationType]);

  return null;
}
