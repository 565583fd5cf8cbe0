import { Toast as ToastPrimitive } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Icon } from './icon';
import styles from './toast.module.css';

export interface ToastMessage {
  /** Changes with each message, so the same text said twice is announced twice. */
  id: number;
  tone: 'success' | 'error';
  title: string;
  description?: string;
}

/**
 * The answer to an action, at the bottom of the screen where the thumb is (Radix Toast: a
 * live region; errors stay longer; Escape or the close button dismisses). What a screen reader
 * hears before each message and the region's name are in the reader's language (Radix's
 * defaults are "Notification" and "Notifications ({hotkey})").
 */
export function Toaster({
  message,
  onDismiss,
  closeLabel,
  children,
}: {
  message: ToastMessage | null;
  onDismiss: () => void;
  closeLabel: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <ToastPrimitive.Provider swipeDirection="down" label={t('toast.label')}>
      {children}
      {message && (
        <ToastPrimitive.Root
          key={message.id}
          className={styles.toast}
          data-tone={message.tone}
          type={message.tone === 'error' ? 'foreground' : 'background'}
          duration={message.tone === 'error' ? 8000 : 4000}
          onOpenChange={(open) => {
            if (!open) onDismiss();
          }}
        >
          <span className={styles.icon} aria-hidden="true">
            <Icon name={message.tone === 'error' ? 'close' : 'check'} size={18} />
          </span>
          <div className={styles.body}>
            <ToastPrimitive.Title className={styles.title}>{message.title}</ToastPrimitive.Title>
            {message.description && (
              <ToastPrimitive.Description className={styles.description}>
                {message.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close className={styles.close} aria-label={closeLabel}>
            <Icon name="close" size={16} />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className={styles.viewport} label={t('toast.region')} />
    </ToastPrimitive.Provider>
  );
}
