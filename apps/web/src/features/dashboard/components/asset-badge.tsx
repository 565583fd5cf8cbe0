import styles from './asset-badge.module.css';

/** A stable hue per code, so EUR looks the same wherever it appears. */
function hueOf(code: string): number {
  let hash = 0;
  for (const character of code) hash = (hash * 31 + character.charCodeAt(0)) % 360;
  return hash;
}

/**
 * The asset's two codes (Icon1: the asset, Icon2: its quote currency) as a compact two-part
 * badge; decorative, since the asset's name is written next to it.
 */
export function AssetBadge({ base, quote }: { base: string; quote: string }) {
  return (
    <span className={styles.pair} aria-hidden="true">
      {[base, quote].map((code, index) => (
        <span
          key={index}
          className={styles.code}
          style={{ '--asset-hue': String(hueOf(code)) } as React.CSSProperties}
        >
          {code.slice(0, 4).toUpperCase()}
        </span>
      ))}
    </span>
  );
}
