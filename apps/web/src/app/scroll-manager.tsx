import { useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

const positions = new Map<string, number>();

/**
 * spec §2 Navigation: a hash scrolls smoothly to its anchor; back and forward restore the
 * saved position; any other navigation starts at the top.
 */
export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  // The history entry that scrolling belongs to. It switches in the layout effect, before
  // the new page scrolls: a scroll event fired by "go to the top" must not overwrite the
  // position saved for the page we left (one listener per entry raced exactly so).
  const currentKey = useRef(location.key);

  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    const save = () => {
      positions.set(currentKey.current, window.scrollY);
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => {
      window.removeEventListener('scroll', save);
    };
  }, []);

  // The first page is the browser's: it may be prerendered and already scrolled by the reader
  // before the app starts, and a reload restores its own position.
  const firstPage = useRef(true);

  useLayoutEffect(() => {
    currentKey.current = location.key;
    if (firstPage.current && !location.hash) {
      firstPage.current = false;
      return;
    }
    firstPage.current = false;
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
