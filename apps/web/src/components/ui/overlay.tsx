import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useAppStore, type OverlayMessage } from '../../stores/app';
import { Icon } from './icon';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * spec §2 Root shell: the full-screen message overlay. Shown while the app store's flag
 * is set; the accept button and the close icon both close it. A modal dialog: focus
 * moves in, Tab stays in, Escape closes, and focus returns where it was.
 */
export function MessageOverlay() {
  const { t } = useTranslation();
  const visible = useAppStore((state) => state.overlayVisible);
  const content = useAppStore((state) => state.overlay);
  const close = useAppStore((state) => state.closeMessage);
  const dialog = useRef<HTMLDivElement>(null);
  const accept = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!visible) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    accept.current?.focus();
    return () => {
      previous?.focus();
    };
  }, [visible]);

  if (!visible || !content) return null;

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const items = [...dialog.current.querySelectorAll<HTMLElement>(focusable)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="overlay" role="presentation">
      <div
        ref={dialog}
        className="overlay__dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="overlay-message"
        onKeyDown={onKeyDown}
      >
        {content.showCloseButton && (
          <button
            type="button"
            className="overlay__close"
            style={{ width: content.closeButtonSize, height: content.closeButtonSize }}
            aria-label={t('overlay.close')}
            onClick={close}
          >
            <Icon name="close" size={Math.round(content.closeButtonSize / 2)} />
          </button>
        )}
        <p id="overlay-message" className="overlay__message">
          {messageText(content.message, t)}
        </p>
        <button
          ref={accept}
          type="button"
          className="button button--primary button--md"
          onClick={close}
        >
          {t('overlay.accept')}
        </button>
      </div>
    </div>
  );
}

function messageText(message: OverlayMessage, t: TFunction) {
  return 'text' in message ? message.text : t(message.key, message.values);
}
