import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { useHydrated } from '../../lib/use-hydrated';
import { Icon, type IconName } from './icon';
import { Spinner } from './spinner';
import { VisuallyHidden } from './visually-hidden';
import styles from './button.module.css';

export interface ButtonIcon {
  name: IconName;
  size?: number;
  width?: number;
  height?: number;
  color?: string;
}

/** How a button looks, whether it is a button or a link. */
interface ButtonLook {
  label?: ReactNode;
  children?: ReactNode;
  size?: 'sm' | 'md';
  color?: 'primary' | 'secondary' | 'other' | 'danger';
  /** Takes the whole width of its container (a form's submit on a narrow card). */
  block?: boolean;
  leftIcon?: ButtonIcon;
  rightIcon?: ButtonIcon;
  className?: string;
}

/** spec §3 Button: every prop of the shared control, with the spec's defaults. */
export interface ButtonProps
  extends
    ButtonLook,
    Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'color' | 'children' | 'className'> {
  type?: 'button' | 'submit' | 'reset';
  disabled?: boolean;
  loading?: boolean;
  form?: string;
}

/** The link variant inside the app: a router link (it keeps the page's language prefix). */
export interface ButtonLinkProps
  extends ButtonLook, Omit<LinkProps, 'color' | 'children' | 'className'> {}

/** The link variant that loads the page afresh (when the router itself may have failed). */
export interface ButtonAnchorProps
  extends
    ButtonLook,
    Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'children' | 'className'> {
  href: string;
}

/** spec §4 Button: loading replaces the content with a spinner, 20 px (sm) or 24 px. */
export function spinnerSize(size: 'sm' | 'md'): number {
  return size === 'sm' ? 20 : 24;
}

function lookClass({ size = 'md', color = 'primary', block = false, className }: ButtonLook) {
  return [styles.button, styles[color], styles[size], block && styles.block, className]
    .filter(Boolean)
    .join(' ');
}

function Content({ label, children, leftIcon, rightIcon }: ButtonLook) {
  return (
    <>
      {leftIcon && <Icon {...leftIcon} />}
      {label ?? children}
      {rightIcon && <Icon {...rightIcon} />}
    </>
  );
}

/**
 * The one button of the app (docs/decisions/044). Given `to` it is an in-app link and given
 * `href` a plain link, looking the same: screens never style a link as a button themselves.
 */
export function Button(props: ButtonProps | ButtonLinkProps | ButtonAnchorProps) {
  if ('to' in props) {
    const { label, children, size, color, block, leftIcon, rightIcon, className, ...link } = props;
    return (
      <Link {...link} className={lookClass({ size, color, block, className })}>
        <Content label={label} leftIcon={leftIcon} rightIcon={rightIcon}>
          {children}
        </Content>
      </Link>
    );
  }
  if ('href' in props) {
    const { label, children, size, color, block, leftIcon, rightIcon, className, ...anchor } =
      props;
    return (
      <a {...anchor} className={lookClass({ size, color, block, className })}>
        <Content label={label} leftIcon={leftIcon} rightIcon={rightIcon}>
          {children}
        </Content>
      </a>
    );
  }
  return <ActionButton {...props} />;
}

function ActionButton({
  type = 'button',
  label,
  children,
  disabled = false,
  size = 'md',
  color,
  block,
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
      className={lookClass({ size, color, block, className })}
    >
      {loading ? (
        <>
          <Spinner size={spinnerSize(size)} />
          <VisuallyHidden>{label ?? children}</VisuallyHidden>
        </>
      ) : (
        <Content label={label} leftIcon={leftIcon} rightIcon={rightIcon}>
          {children}
        </Content>
      )}
    </button>
  );
}
