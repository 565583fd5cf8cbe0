import type { TFunction } from 'i18next';
import { AlertDialog } from 'radix-ui';
import { useTranslation } from '../../lib/i18n';
import { useAppStore, type OverlayMessage } from '../../stores/app';
import { Button } from './button';
import { Icon } from './icon';
import styles from './overlay.module.css';

/**
 * spec §2 Root shell: the full-screen message overlay. Shown while the app store's flag
 * is set; the accept button and the close icon both close it. A modal dialog (Radix
 * AlertDialog): focus starts on Accept, Tab stays in, Escape closes, and focus returns where
 * it was.
 */
export function MessageOverlay() {
  const { t } = useTranslation();
  const visible = useAppStore((state) => state.overlayVisible);
  const content = useAppStore((state) => state.overlay);
  const close = useAppStore((state) => state.closeMessage);

  return (
    <AlertDialog.Root
      open={visible && content !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
    >
      {content && (
        <AlertDialog.Portal>
          <AlertDialog.Overlay className={styles.scrim} />
          <AlertDialog.Content className={styles.dialog} aria-describedby={undefined}>
            {content.showCloseButton && (
              <button
                type="button"
                className={styles.close}
                style={{ width: content.closeButtonSize, height: content.closeButtonSize }}
                aria-label={t('overlay.close')}
                onClick={close}
              >
                <Icon name="close" size={Math.round(content.closeButtonSize / 2)} />
              </button>
            )}
            <AlertDialog.Title asChild>
              <p className={styles.message}>{messageText(content.message, t)}</p>
            </AlertDialog.Title>
            <AlertDialog.Cancel asChild>
              <Button label={t('overlay.accept')} />
            </AlertDialog.Cancel>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      )}
    </AlertDialog.Root>
  );
}

function messageText(message: OverlayMessage, t: TFunction) {
  return 'text' in message ? message.text : t(message.key, message.values);
}
