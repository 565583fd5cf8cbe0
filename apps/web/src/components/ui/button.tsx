import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { Icon, type IconName } from './icon';
import { Spinner } from './spinner';
import styles from './button.module.css';

export interface ButtonIcon {
  name: IconName;
  size?: number;
  width?: number;
  height?: number;
  color?: string;
}

/** spec §3 Button: every prop of the shared control, with the spec's defaults. */
export interface ButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'color' | 'children'
> {
  type?: 'button' | 'submit' | 'reset';
  label?: ReactNode;
  children?: ReactNode;
  disabled?: boolean;
  size?: 'sm' | 'md';
  color?: 'primary' | 'secondary' | 'other' | 'danger';
  loading?: boolean;
  form?: string;
  leftIcon?: ButtonIcon;
  rightIcon?: ButtonIcon;
}

/** spec §4 Button: loading replaces the content with a spinner, 20 px (sm) or 24 px. */
export function spinnerSize(size: 'sm' | 'md'): number {
  return size === 'sm' ? 20 : 24;
}

export function Button({
  type = 'button',
  label,
  children,
  disabled = false,
  size = 'md',
  color = 'primary',
  loading = false,
  leftIcon,
  rightIcon,
  className,
  ...rest
}: ButtonProps) {
  // Until a prerendered page is hydrated a form would submit natively (its fields in the
  // address): its submit button waits, and with it the Enter key (docs/decisions/053).
  const hydrated = useHydrated();
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading || (type === 'submit' && !hydrated)}
      aria-busy={loading || undefined}
      className={[
        'button',
        color === 'danger' ? styles.danger : `button--${color}`,
        `button--${size}`,
        className,
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {loading ? (
        <Spinner size={spinnerSize(size)} />
      ) : (
        <>
          {leftIcon && <Icon {...leftIcon} />}
          {label ?? children}
          {rightIcon && <Icon {...rightIcon} />}
        </>
      )}
      {loading && <span className="visually-hidden">{label ?? children}</span>}
    </button>
  );
}
