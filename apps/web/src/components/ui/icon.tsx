/** The few icons the shell needs, as 24×24 stroke paths. */
const paths = {
  'arrow-left': 'M15 18l-6-6 6-6',
  'arrow-right': 'M9 6l6 6-6 6',
  check: 'M5 12l5 5 9-9',
  close: 'M6 6l12 12M18 6L6 18',
  menu: 'M4 7h16M4 12h16M4 17h16',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  mail: 'M3 6h18v12H3zM3 7l9 6 9-6',
} as const;
export type IconName = keyof typeof paths;

export interface IconProps {
  name: IconName;
  size?: number;
  width?: number;
  height?: number;
  color?: string;
}

export function Icon({ name, size = 20, width, height, color = 'currentColor' }: IconProps) {
  return (
    <svg
      width={width ?? size}
      height={height ?? size}
      viewBox="0 0 24 24"
      fill="none"
      stroke={color}
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  );
}
